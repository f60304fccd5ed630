# Empirical CDFs of T for several runs on one axis, the deadline marked.
# Variables: n, file1..fileN (CDF data: days share_below), title1..titleN,
# deadline, xlo, xhi, title; out (the SVG).
set terminal svg size 960,420 dynamic font "sans,12"
set output out
set title title
set grid lc rgb "#dddddd"
set key outside right top vertical
set xlabel "completion time T (days)"
set ylabel "share of replicas with T below x"
set xrange [xlo:xhi]
set yrange [0:1.02]
set arrow 1 from deadline, graph 0 to deadline, graph 1 nohead lc rgb "#d62728" lw 2
set label 1 sprintf("deadline %g d", deadline) at deadline, graph 0.5 right offset -0.5,0 tc rgb "#d62728"
plot for [i=1:n] value(sprintf("file%d", i)) using 1:2 with linespoints pt 7 ps 0.4 lw 2 \
     title value(sprintf("title%d", i))
