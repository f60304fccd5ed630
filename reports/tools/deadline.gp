# P(T <= deadline) against one swept key for two experiments, with Wilson 95 %
# intervals, and where each one's closed form says the deadline is just met.
# Variables (deadline_probability.py): file1, file2 (columns x p lo hi),
# title1, title2, threshold1, threshold2, xlabel, title, xlo, xhi; out.
set terminal svg size 860,460 dynamic font "sans,12"
set output out
set title title
set grid lc rgb "#dddddd"
set xlabel xlabel
set ylabel "P(T <= deadline), Wilson 95 %"
set xrange [xlo:xhi]
set yrange [-0.03:1.03]
set key below # never over the points or the dashed thresholds
set arrow 1 from threshold1, graph 0 to threshold1, graph 1 nohead dt 2 lw 2 lc rgb "#1f77b4"
set arrow 2 from threshold2, graph 0 to threshold2, graph 1 nohead dt 2 lw 2 lc rgb "#d62728"
plot file1 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 lc rgb "#1f77b4" title title1, \
     file2 using 1:2:3:4 with yerrorlines pt 5 ps 0.6 lc rgb "#d62728" title title2, \
     NaN with lines dt 2 lw 2 lc rgb "#555555" title "dashed: where the closed form just meets the deadline"
