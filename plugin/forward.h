/* forward.h -- matrix products of the kernel itself as CBLAS calls
   (-fplugin-arg-tensorgrad-blas-forward) or tiled products
   (-fplugin-arg-tensorgrad-tiled-forward; forward.cc).  */

#ifndef TG_FORWARD_H
#define TG_FORWARD_H

#include "gcc-common.h"

/* Replace each nest of FUN, the body of KERNEL, that computes a stage of
   FWD (KERNEL's program as lifted, a copy made before the pipeline) which
   te_gemm_forward reads as a matrix product by a call of a function the
   emitter makes, which calls the CBLAS, or, when TILED, the tiled
   product of lib/back/tiled.h (no library); say in the dump which did
   and why the others did not.  VMATH: that function's math calls are
   libmvec's (vector-forward), whatever vector-math says.  KEEP
   (keep-products): that function keeps its product for the gradient
   when it writes a local array (emit.h, EMIT_KEEP_PUT).  PARALLEL (the
   option parallel): that function runs its loops and tiled products on
   OpenMP threads where it can.  When FUN is the serial twin of KERNEL
   (an OpenMP kernel, omp.cc), FUN is left as it is: a nest that is the
   one loop of a parallel region is to be a call, on OpenMP threads, in
   place of the region (omp_replace_region; forward_regions does it).
   WINOGRAD: a 3x3 convolution over the kernel's parameters becomes a
   call of libtensorgrad's tg_conv3x3 instead (lib/passes/winograd.c).
   Returns the TODO flags FUN then needs.  */
unsigned forward_blas (function *fun, tree kernel, te_program *fwd,
                       bool tiled, bool vmath, bool keep, bool parallel,
                       bool winograd);

/* The parallel regions of FUN, an OpenMP kernel, that forward_blas
   found to compute a product of its twin: each GOMP_parallel call that
   runs one becomes a call of its helper.  Returns the TODO flags FUN
   then needs.  */
unsigned forward_regions (function *fun);

/* -fplugin-arg-tensorgrad-vector-forward: give KERNEL (and the
   functions GCC outlines from its OpenMP regions, which inherit it) the
   optimization options -fassociative-math -fno-signed-zeros
   -fno-trapping-math on top of its own, so that GCC's vectorizer may sum
   its floating-point reductions in lanes, and, where the target has
   libmvec (MATH), make its calls of the math functions libmvec has
   calls of the declarations vector-math gives the gradients, which GCC
   may vectorize.  Before the body is gimplified (PLUGIN_PRE_GENERICIZE),
   after the serial twin of an OpenMP kernel is made (the lifter reads
   that).  */
void forward_vectorize (tree kernel, bool math);

/* The optimization node KERNEL's gradient gets: the kernel's own, as it
   was before forward_vectorize gave it vector-forward's options (which
   concern the kernel's results, not the gradient's).  */
tree forward_gradient_optimization (tree kernel);

/* -fplugin-arg-tensorgrad-vector-forward, once the gradient is made:
   FUN's calls of fmax and fmin (float, double) without calls, the same
   values NaNs included, so GCC may vectorize them: a reduction
   (mx = fmaxf (mx, x[j]) in a loop) as a MAX_EXPR one in lanes, any
   other as a MAX_EXPR of its operands, each a NaN's other; and a
   running maximum or minimum written as a branch (if (x[j] > mx) mx =
   x[j]) as such a reduction, with the branch's values.  Returns the
   TODO flags FUN then needs.  */
unsigned forward_minmax (function *fun);

#endif /* TG_FORWARD_H */
