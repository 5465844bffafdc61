/* tiled.h -- the static function that runs a matrix product without a
   library (tiled.cc; lib/back/tiled.h says what it computes).  */

#ifndef TG_PLUGIN_TILED_H
#define TG_PLUGIN_TILED_H

#include "gcc-common.h"

/* The static function tensorgrad.tiled.f32 (TYPE TE_F32) or .f64 to
   call, with LIKE's optimization and target options (LIKE may be NULL):
   void (long m, long n, long k, T alpha, const T *a, long sai, long sap,
   const T *b, long sbp, long sbj, T *c, long ldc).  The functions to
   hand to the call graph, gimplified, are pushed onto *PENDING (a
   TREE_LIST, newest first, handed over oldest first): the function
   itself, or on x86-64 with ifuncs its versions and their resolver,
   whose entry's TREE_PURPOSE is the ifunc to make of it by
   tiled_hand_over once it is in the call graph, and which is what the
   calls name.  */
tree tiled_build (te_type type, tree like, tree *pending);

/* The static function tensorgrad.wgemm.f32 (.f64), a CBLAS-like gemm
   (order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc;
   row-major, the transpositions CblasTrans 112 or not, BETA 0 or 1) that
   calls TILED (tiled_build's) with the operands' strides: what
   winograd's calls pass without blas (te_call.gemm TE_GEMM_TILED).
   Pushed onto *PENDING as tiled_build's functions are.  */
tree tiled_gemm_adapter (te_type type, tree tiled, tree like, tree *pending);

/* ALIAS, an ifunc of RESOLVER, into the call graph (after RESOLVER).  */
void tiled_hand_over (tree alias, tree resolver);

#endif /* TG_PLUGIN_TILED_H */
