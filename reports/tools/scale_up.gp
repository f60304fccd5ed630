# More cards needed than 6ND's closed-form count, in %, against the job's
# MTBF M at that count (minutes; both axes logarithmic): the simulated search
# (P >= 0.9), Daly's and Young's closed forms; colour by model size; rows with
# no count up to 4x drawn at 300 %.
# Variables (scale_up.py): data (columns mtbf_min sim_pct young_pct daly_pct
# model daly_none young_none), title; out (the SVG).
set terminal svg size 900,620 dynamic font "sans,12"
set output out
set title title
set grid lc rgb "#dddddd"
set logscale xy
set xrange [1.5:600]
set yrange [3:450]
set ytics (5, 10, 20, 50, 100, 200, "none up to 4x" 300)
set xlabel "job MTBF M at the closed-form card count (minutes)"
set ylabel "more cards than 6ND's count (%)"
set key below vertical maxrows 4 width 2
colour(m) = m == 0 ? 0x1f77b4 : (m == 1 ? 0xff7f0e : 0x2ca02c)
plot data using 1:($6 == 1 ? 300 : NaN) with points pt 9 ps 1.6 lc rgb "#999999" title "Daly: none up to 4x", \
     data using 1:($7 == 1 ? 300 : $3):(colour($5)) with points pt 2 ps 1.2 lc rgb variable title "Young (cross)", \
     data using 1:4:(colour($5)) with points pt 6 ps 1.8 lc rgb variable title "Daly (open circle)", \
     data using 1:2:(colour($5)) with points pt 7 ps 1.0 lc rgb variable title "simulated, P >= 0.9 (dot)", \
     1/0 with points pt 5 lc rgb "#1f77b4" title "1T", \
     1/0 with points pt 5 lc rgb "#ff7f0e" title "5T", \
     1/0 with points pt 5 lc rgb "#2ca02c" title "10T"
