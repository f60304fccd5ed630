# c_N = E[max of N standard normals] against N: quadrature, the simulated
# means (O(1) sampler; brute force for small N), the reference design's
# rounded values, Blom's and the Gumbel approximation; below, the differences
# from quadrature (95 % error bars, +- 1.96 se).
# Variables (straggler_coefficient.py): data (columns n quad sd sampler
# sampler_se brute brute_se blom gumbel reference), replicas; out (the SVG).
set terminal svg size 900,680 dynamic font "sans,12"
set output out
set multiplot title sprintf("straggler coefficient c_N: %d draws per N (docs/model.md 2)", replicas)
set grid lc rgb "#dddddd"
set logscale x
set xrange [0.8:2e7]
set xtics ("1" 1, "10" 10, "100" 100, "10^3" 1e3, "10^4" 1e4, "10^5" 1e5, "10^6" 1e6, "10^7" 1e7)
set lmargin 12
set rmargin 3

set origin 0, 0.4
set size 1, 0.56
set format x ""
unset xlabel
set ylabel "c_N, in units of sigma" # a space right after a subscript is lost in some SVG viewers
set key top left
plot data using 1:2 with lines lw 2 lc rgb "#1f77b4" title "quadrature (GSL)", \
     data using 1:8 with lines dt 2 lc rgb "#9467bd" title "Blom 1958", \
     data using 1:9 with lines dt 3 lw 2 lc rgb "#8c564b" title "Gumbel expansion", \
     data using 1:4:(1.96 * $5) with yerrorbars pt 7 ps 0.5 lc rgb "#d62728" title "O(1) sampler (simulated)", \
     data using 1:10 with points pt 4 ps 1.5 lw 2 lc rgb "#2ca02c" title "reference design (rounded)"

set origin 0, 0
set size 1, 0.42
set format x "10^{%L}"
set xtics ("1" 1, "10" 10, "100" 100, "10^3" 1e3, "10^4" 1e4, "10^5" 1e5, "10^6" 1e6, "10^7" 1e7)
set xlabel "cards N"
set ylabel "minus quadrature"
set key top right maxcols 1 # above the curves: Blom is near -0.015 on the right
plot 0 with lines lw 2 lc rgb "#1f77b4" notitle, \
     data using 1:($8 - $2) with lines dt 2 lc rgb "#9467bd" title "Blom", \
     data using 1:($4 - $2):(1.96 * $5) with yerrorbars pt 7 ps 0.5 lc rgb "#d62728" title "sampler", \
     data using ($1 * 1.15):($6 - $2):(1.96 * $7) with yerrorbars pt 6 ps 0.5 lc rgb "#ff7f0e" title "brute force (N <= 64, drawn 15 % right)", \
     data using 1:($10 - $2) with points pt 4 ps 1.5 lw 2 lc rgb "#2ca02c" title "reference"
unset multiplot
