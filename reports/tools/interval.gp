# Overhead against the checkpoint interval: Young's first-order L and Daly's
# overhead as curves (trainmc's closed forms at every interval of K steps),
# the simulated overhead as points with 95 % error bars (+- 1.96 se); below,
# everything minus Young's L, where the differences show.
# Variables (checkpoint_interval.interval_plot): curve, points (data files),
# title, young_tau, daly_tau, best_tau, xlo, xhi; out (the SVG).
set terminal svg size 900,640 dynamic font "sans,12"
set output out
set multiplot title title
set grid lc rgb "#dddddd"
set logscale x
set xrange [xlo:xhi]
set xtics (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000)
set lmargin 12
set rmargin 3

set origin 0, 0.36
set size 1, 0.6
set format x ""
unset xlabel
set ylabel "overhead (%)"
set key top center
set arrow 1 from young_tau, graph 0 to young_tau, graph 1 nohead dt 2 lc rgb "#1f77b4"
set arrow 2 from daly_tau, graph 0 to daly_tau, graph 1 nohead dt 3 lc rgb "#2ca02c"
set arrow 3 from best_tau, graph 0 to best_tau, graph 0.12 head filled lc rgb "#d62728"
plot curve using 1:2 with lines lw 2 lc rgb "#1f77b4" title "Young, first order: c/tau + (tau/2 + r)/M", \
     curve using 1:3 with lines lw 2 dt 2 lc rgb "#2ca02c" title "Daly 2006", \
     points using 1:2:(1.96 * $3) with yerrorbars pt 7 ps 0.6 lc rgb "#d62728" \
       title "simulated, +- 1.96 se (arrow: lowest)"

set origin 0, 0
set size 1, 0.38
set format x "%g"
set xlabel "checkpoint interval tau = K t_s (s); dashed lines: optimum by Young, by Daly"
set ylabel "minus Young (points)"
unset arrow 3
set key top left
plot 0 with lines lw 2 lc rgb "#1f77b4" notitle, \
     curve using 1:4 with lines lw 2 dt 2 lc rgb "#2ca02c" title "Daly - Young", \
     points using 1:4:(1.96 * $3) with yerrorbars pt 7 ps 0.6 lc rgb "#d62728" title "simulated - Young"
unset multiplot
