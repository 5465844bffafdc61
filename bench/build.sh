#!/bin/sh
# build.sh -- build the tensorgrad benchmark (bench/README).
#
#   sh build.sh SRCDIR OUTDIR PLUGIN
#
# Environment: CC (default gcc), OBJDUMP (objdump), NM (nm),
# BENCH_LEVELS (default "O2 O3"; the driver expects exactly these two),
# CBLAS_LIBS (configure's: -lopenblas, -lcblas or -lblas; empty: no
# blas variant), BENCH_CFLAGS (more flags for every kernel, forwards and
# hand-written backwards too, e.g. -march=native; default none) and
# BENCH_PLUGIN_FLAGS (more flags for the builds with the plugin only,
# e.g. -fplugin-arg-tensorgrad-vector-math; default none).  Both are
# printed in the table's flags line.
#
# For each kernel K and level L it compiles, with the same flags:
#   K-L-fwd.o    K.c without the plugin, the forward renamed K_L
#   K-L-ref.o    K_ref.c, the hand-written backward renamed K_L_grad_ref
#   K-L-gen.o    K.c with the plugin, renamed K_L_gen: defines K_L_gen_grad
#   K-L-noopt.o  the same with -fplugin-arg-tensorgrad-no-opt, when the
#                plugin accepts that option
#   K-L-blas.o   the same with -fplugin-arg-tensorgrad-blas, for the
#                kernels in $blas_kernels, when CBLAS_LIBS names a CBLAS
# and writes K-L-{gen,noopt}.status: "ok", "unsupported: <first error
# line>" or "n/a", and K-L-*.calls: the transcendental call sites.  A
# rejected kernel gets an empty object, so the link and the table go on.
# The exit status is nonzero only when the benchmark's own code (driver,
# forwards, hand-written backwards) does not build.

set -u
srcdir=$1
out=$2
plugin=$3
CC=${CC:-gcc}
OBJDUMP=${OBJDUMP:-objdump}
NM=${NM:-nm}
levels=${BENCH_LEVELS:-"O2 O3"}
kernels="dense conv2d softmax layernorm batchnorm layernorm_stats tanhchain mlp
         rnn attention crossent_padded"
# The kernels whose gradients have matrix products, built once more with
# -fplugin-arg-tensorgrad-blas and linked with $CBLAS_LIBS.
blas_kernels="dense conv2d mlp attention"
CBLAS_LIBS=${CBLAS_LIBS:-}
# The flags every kernel gets besides -O2/-O3: no -march (reproducible)
# unless BENCH_CFLAGS says, no -ffast-math, no OpenMP.  Printed in the
# table.
common="-std=gnu11${BENCH_CFLAGS:+ $BENCH_CFLAGS}"
plugin_flags=${BENCH_PLUGIN_FLAGS:-}

mkdir -p "$out" || exit 1
echo '*' > "$out/.gitignore"	# build outputs only
rm -f "$out"/*.o "$out"/*.status "$out"/*.calls "$out"/*.log "$out"/*-dbl.c \
      "$out"/tg-bench "$out"/flags

die () { echo "bench/build.sh: $*" >&2; exit 1; }

# The first line that tells what went wrong in compiler log $1, without
# the directory part of file names.
first_error () {
  line=$(grep -m1 -E 'error|internal compiler|Segmentation|signal' "$1")
  [ -n "$line" ] || line=$(grep -m1 . "$1")
  [ -n "$line" ] || line="the compiler failed without a message"
  printf '%s\n' "$line" | sed -e 's|^[^ :]*/||' -e 's/ error: / /'
}

empty_object () {
  printf '' | $CC -x c -c - -o "$1" || die "cannot compile an empty object"
}

# Transcendental call sites in object $1, in functions whose name matches
# the extended regex $2; calls to function $3 (the forward) as fwd().
count_calls () {
  $OBJDUMP -dr --no-show-raw-insn "$1" 2>/dev/null | awk -v fre="$2" -v fwd="$3" '
    /^[0-9a-f]+ <[^>]*>:$/ {
      name = $2; gsub(/[<>:]/, "", name); infn = (name ~ fre); next }
    infn && /R_X86_64_|R_AARCH64_|R_386_/ {
      sym = $NF; sub(/[-+]0x[0-9a-f]+$/, "", sym); sub(/@.*/, "", sym)
      base = sym; sub(/^_ZGV[a-zA-Z0-9]*_/, "", base); sub(/^__/, "", base)
      sub(/_finite$/, "", base)
      if (sym == fwd) { cnt["fwd()"]++; next }
      if (base ~ /^(exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|tanh|sinh|cosh|sin|cos|tan|asin|acos|atan|atan2|asinh|acosh|atanh|erf|erfc|lgamma|tgamma|cbrt|sincos)f?$/)
        cnt[sym]++ }
    END {
      s = ""; n = 0
      for (k in cnt) keys[++n] = k
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
      for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") keys[i] ":" cnt[keys[i]]
      print (n ? s : "none") }'
}

[ -f "$plugin" ] || die "no plugin at $plugin (run make first)"

# Does the plugin accept -fplugin-arg-tensorgrad-no-opt?  Probe with an
# elementwise kernel, which it supports; if even that fails, say so.
probe=$out/probe.c
cat > "$probe" <<'EOF'
__attribute__((differentiable))
void probe (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0f * x[i];
}
EOF
noopt=no
if $CC -O2 -fplugin="$plugin" -c "$probe" -o "$out/probe.o" 2>/dev/null; then
  if $CC -O2 -fplugin="$plugin" -fplugin-arg-tensorgrad-no-opt \
       -c "$probe" -o "$out/probe.o" 2>/dev/null; then
    noopt=yes
  fi
else
  echo "bench/build.sh: warning: the plugin rejects even an elementwise kernel" >&2
fi
rm -f "$probe" "$out/probe.o"

# Compile variant $3 (gen or noopt) of kernel $1 at level $2 with the
# plugin and extra flags $4; record its status and call sites.
build_gen () {
  k=$1 l=$2 v=$3 extra=$4
  o=$out/$k-$l-$v.o
  if $CC -$l $common -fplugin="$plugin" $plugin_flags $extra \
       -D$k=${k}_${l}_$v \
       -c "$srcdir/$k.c" -o "$o" 2> "$out/$k-$l-$v.log"; then
    if $NM "$o" | grep -q " T ${k}_${l}_${v}_grad\$"; then
      echo ok > "$out/$k-$l-$v.status"
      count_calls "$o" "^${k}_${l}_${v}_grad([.].*)?\$" "${k}_${l}_$v" \
        > "$out/$k-$l-$v.calls"
      return
    fi
    echo "unsupported: the object has no global ${k}_${l}_${v}_grad" \
      > "$out/$k-$l-$v.status"
  else
    echo "unsupported: $(first_error "$out/$k-$l-$v.log")" \
      > "$out/$k-$l-$v.status"
  fi
  rm -f "$o"
  empty_object "$o"
}

# The kernel in double, for the float gradients' error (driver.c): a
# wrapper includes math.h, then makes float double and the float math
# functions their double forms, then includes the kernel; built at -O2
# through the plugin, it defines K_dbl and K_dbl_grad.  A kernel it
# cannot build gets an empty object (the driver's weak references are
# then null and its error columns say "-").
build_dbl () {
  k=$1
  w=$out/$k-dbl.c
  src=$(cd "$srcdir" && pwd)/$k.c
  {
    echo '#include <math.h>'
    echo '#define float double'
    for f in sqrt exp log tanh fmax fmin fabs pow; do
      echo "#define ${f}f $f"
    done
    echo "#define $k ${k}_dbl"
    echo "#include \"$src\""
  } > "$w"
  if ! $CC -O2 $common -fplugin="$plugin" -c "$w" -o "$out/$k-dbl.o" \
       2> "$out/$k-dbl.log"; then
    echo "bench/build.sh: warning: no double build of $k.c: $(first_error "$out/$k-dbl.log")" >&2
    empty_object "$out/$k-dbl.o"
  fi
}

for k in $kernels; do
  build_dbl "$k"
  for l in $levels; do
    $CC -$l $common -Wno-attributes -D$k=${k}_$l \
      -c "$srcdir/$k.c" -o "$out/$k-$l-fwd.o" || die "cannot compile $k.c"
    count_calls "$out/$k-$l-fwd.o" "." "" > "$out/$k-$l-fwd.calls"
    $CC -$l $common -Wall -D${k}_grad_ref=${k}_${l}_grad_ref \
      -c "$srcdir/${k}_ref.c" -o "$out/$k-$l-ref.o" \
      || die "cannot compile ${k}_ref.c"
    count_calls "$out/$k-$l-ref.o" "." "" > "$out/$k-$l-ref.calls"
    build_gen "$k" "$l" gen ""
    if [ $noopt = yes ]; then
      build_gen "$k" "$l" noopt -fplugin-arg-tensorgrad-no-opt
    else
      echo "n/a" > "$out/$k-$l-noopt.status"
      empty_object "$out/$k-$l-noopt.o"
    fi
    case " $blas_kernels " in
      *" $k "*)
        if [ -n "$CBLAS_LIBS" ]; then
          build_gen "$k" "$l" blas -fplugin-arg-tensorgrad-blas
        else
          echo "n/a" > "$out/$k-$l-blas.status"
        fi ;;
    esac
  done
done

$CC -O2 $common -Wall -c "$srcdir/driver.c" -o "$out/driver.o" \
  || die "cannot compile driver.c"

link () {
  $CC -o "$out/tg-bench" "$out/driver.o" "$out"/*-fwd.o "$out"/*-ref.o \
    "$out"/*-gen.o "$out"/*-noopt.o "$out"/*-dbl.o $blas_objs $CBLAS_LIBS \
    -lm -pthread -Wl,--wrap=calloc
}

blas_objs=
for o in "$out"/*-blas.o; do
  [ -f "$o" ] && blas_objs="$blas_objs $o"
done

# A generated object that does not link (it needs a symbol nothing
# defines) is reported like a rejected kernel.
if ! link 2> "$out/link.log"; then
  for o in "$out"/*-gen.o "$out"/*-noopt.o $blas_objs; do
    base=${o%.o}
    if ! $CC -o "$out/link-test" "$out/driver.o" "$out"/*-fwd.o \
         "$out"/*-ref.o "$out"/*-dbl.o "$o" $CBLAS_LIBS -lm -pthread \
         2> "$base.log"; then
      echo "unsupported: link: $(first_error "$base.log")" > "$base.status"
      empty_object "$o"
    fi
    rm -f "$out/link-test"
  done
  link || die "cannot link tg-bench (see above)"
fi
rm -f "$out/link.log"

case " $common " in
  *" -march="*) march= ;;
  *) march="no -march, " ;;
esac
echo "$CC $($CC -dumpfullversion 2>/dev/null || $CC -dumpversion): -O2 or -O3, $common${plugin_flags:+, with the plugin $plugin_flags} (${march}no -ffast-math)" \
  > "$out/flags"
exit 0
