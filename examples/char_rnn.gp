# char_rnn.gp -- draw the loss curve char_rnn --csv wrote.
#
#   gnuplot -e "csv='char_rnn.csv'; png='char_rnn.png'" char_rnn.gp
#
# (make examples-plot does it).  The CSV has a header line and the
# columns step, loss (the window's cross-entropy, nats per character)
# and smooth (its moving average).

if (!exists("csv")) csv = 'char_rnn.csv'
if (!exists("png")) png = 'char_rnn.png'

set terminal png size 900,540
set output png
set datafile separator ','
set key top right
set grid
set title 'char\_rnn: a character-level RNN trained with tensorgrad gradients'
set xlabel 'step (one window of 25 characters)'
set ylabel 'cross-entropy (nats per character)'
set yrange [0:*]
plot csv using 1:2 skip 1 with points pointtype 7 pointsize 0.2 \
       linecolor rgb '#a0b8d8' title 'loss of the window', \
     csv using 1:3 skip 1 with lines linewidth 2 linecolor rgb '#c03020' \
       title 'smoothed (0.99)'
