# Completion time T of one `trainmc run`: the histogram (left) and the
# empirical CDF (right), the deadline marked on both.
# Variables (common.histogram_cdf): hist, cdf, quantiles (data files), title,
# deadline, deadline_in_hist, deadline_note, hist_xlo/hist_xhi,
# cdf_xlo/cdf_xhi, replicas, probability; out (the SVG).
set terminal svg size 1000,420 dynamic font "sans,12"
set output out
set multiplot layout 1,2 title title
set grid lc rgb "#dddddd"
set key top left

set title sprintf("histogram of %d replicas", replicas)
set xlabel "completion time T (days)"
set ylabel "share of replicas per bin"
set xrange [hist_xlo:hist_xhi]
set yrange [0:*]
set style fill solid 0.5 border lc rgb "#1f77b4"
if (deadline_in_hist) {
  set arrow 1 from deadline, graph 0 to deadline, graph 1 nohead lc rgb "#d62728" lw 2
  set label 1 deadline_note at deadline, graph 0.95 offset 0.5,0 tc rgb "#d62728"
} else {
  set label 1 deadline_note at graph 0.98, graph 0.95 right tc rgb "#d62728"
}
plot hist using (($1 + $2) / 2):4:($2 - $1) with boxes lc rgb "#1f77b4" notitle
unset arrow 1
unset label 1

set title probability
set ylabel "share of replicas with T below x"
set xrange [cdf_xlo:cdf_xhi]
set yrange [0:1.02]
set key bottom right
set arrow 2 from deadline, graph 0 to deadline, graph 1 nohead lc rgb "#d62728" lw 2
set label 2 sprintf("deadline %g d", deadline) at deadline, graph 0.5 right offset -0.5,0 tc rgb "#d62728"
plot cdf using 1:2 with linespoints pt 7 ps 0.4 lc rgb "#1f77b4" title "at the histogram's bin edges", \
     quantiles using 1:2 with points pt 6 ps 1.2 lc rgb "#ff7f0e" title "quantiles p01, p05, p50, p95, p99"
unset multiplot
