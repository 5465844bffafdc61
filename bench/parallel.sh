#!/bin/sh
# parallel.sh -- build make bench-parallel's program (bench/parallel.c).
#
#   sh parallel.sh SRCDIR OUTDIR PLUGIN
#
# Each of dense, conv2d, layernorm and attention at -O2 with -fopenmp:
# K.c with the plugin (the forward under its pragma, the generated
# gradient on threads), K_ref.c (the hand-written backward under its
# own pragmas), and the driver, linked into OUTDIR/tg-bench-parallel.

set -u
srcdir=$1
out=$2
plugin=$3
CC=${CC:-gcc}
flags="-O2 -std=gnu11 -fopenmp"
mkdir -p "$out" || exit 1
rm -f "$out"/*.o "$out"/tg-bench-parallel
objs=""
for k in dense conv2d layernorm attention; do
  $CC $flags -Wno-attributes "-fplugin=$plugin" -c "$srcdir/$k.c" \
    -o "$out/$k.o" || { echo "parallel.sh: $k.c does not build" >&2; exit 1; }
  $CC $flags -Wall -c "$srcdir/${k}_ref.c" -o "$out/${k}_ref.o" \
    || { echo "parallel.sh: ${k}_ref.c does not build" >&2; exit 1; }
  objs="$objs $out/$k.o $out/${k}_ref.o"
done
$CC $flags -Wall -c "$srcdir/parallel.c" -o "$out/parallel.o" || exit 1
$CC -fopenmp -o "$out/tg-bench-parallel" "$out/parallel.o" $objs -lm
