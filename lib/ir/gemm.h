/* gemm.h -- a statement that is a matrix product, read as the arguments
   of a row-major cblas_sgemm / cblas_dgemm call.

   A backward stage statement

       for b < B, i < M, j < N, p < K:
         C[oc + ldc*i + j] += alpha * A[oa + lda*i + p] * B[ob + ldb*p + j]

   (any order of the loops; A may be stored transposed, A[oa + i + lda*p],
   and B too, B[ob + p*1 + ldb*j]) computes, for each value of the batch
   counters b, C = alpha * op (A) * op (B) + 1 * C with C an M by N block
   of rows ldc apart.  te_gemm_match reads that form off a stage; the
   lowering (lib/back/lower.c) keeps it for the back ends, which call the
   CBLAS for it (plugin/emit.cc, lib/back/cgen.c) when the sizes suit
   the BLAS at run time, and run the loops otherwise.  The MPFR
   interpreter runs the loops: the same mathematics, summed in another
   order.  */

#ifndef TG_GEMM_H
#define TG_GEMM_H

#include "ir/te.h"

typedef struct te_gemm
{
  const te_tensor *a, *b, *c; /* C += alpha * op (A) * op (B) */
  bool trans_a, trans_b;      /* A stored K by M (A[p*lda + i]); B stored
                                 N by K (B[j*ldb + p]) */
  int row, col, red;          /* the counters i, j, p */
  te_node *m, *n, *k;         /* their extents: integer parameters and
                                 constants only */
  te_node *lda, *ldb, *ldc;   /* leading dimensions, the same */
  te_node *off_a, *off_b, *off_c; /* the element at i = j = p = 0; may
                                     use the batch counters */
  double alpha, beta;         /* beta: 1 for +=, 0 for = */
  int nbatch;
  te_loop batch[TE_MAX_LOOPS]; /* the stage's other loops, in its order
                                  (lanes cleared): one call per
                                  iteration */
} te_gemm;

/* Is statement K of stage S of P such a product?  Fills *G and returns
   true, or returns false with *WHY (a fixed phrase) saying what is not.
   Makes canonical index nodes in P's context.  */
bool te_gemm_match (te_program *p, const te_stage *s, int k, te_gemm *g,
                    const char **why);

/* "d_w = x^T * d1 as cblas_sgemm (k, m, n)", with " in a loop over b"
   for batch loops, in memory of P's context: the fixed wording of the
   notes and the dump; "as tiled (k, m, n)" when P's products run tiled
   (te_program.tiled, lib/back/tiled.h), not in a CBLAS.  */
const char *te_gemm_text (const te_program *p, const te_gemm *g);

/* Forward stage SI of P, one statement

       for b..., i < M, j < N:
         C[oc + ldc*i + j] = f (sum (p < K; init; s * A * B))

   (a matrix product with an initial value per element, a dense layer's
   bias; s factors of the term free of p, a scale; f what surrounds the
   sum, an activation; b... batch loops, the heads of attention), as a
   program of P's parameters, then one pointer parameter per local array
   of the kernel it names (a tensor of kind TE_TK_PARAM whose decl is
   the local's), in P's context, with the stages (for a sum over several
   loops, a convolution's, first the other factor's patches packed into
   a temporary, im2col, and the product over them) C[...] = init (0 when
   there is an s) over the stage's loops, the product added, a blas
   stage (te_stage.blas) whose reading fills *G, and, when f or s is
   not nothing, C[...] = f (init + s * C[...]).  The back ends print it
   as a function that runs in place of the kernel's nest (plugin/
   forward.cc, -fplugin-arg-tensorgrad-blas-forward, or tiled-forward
   when the caller marks the program tiled): it computes the same
   elements, the sum in the BLAS's order (or the tiled product's).  NULL with *WHY (a fixed
   phrase) when the stage is not such a product: more than one
   statement or sum, a guard, a destination or operand that is not an
   array of the kernel (an optional pointer, a temporary the lifter
   made), or elements of C that distinct iterations may share (then
   adding the product after the initial values differs from the
   source's assignments).  */
te_program *te_gemm_forward (te_program *p, int si, te_gemm *g,
                             const char **why);

/* The CBLAS function for G: "cblas_sgemm" or "cblas_dgemm".  */
const char *te_gemm_function (const te_gemm *g);

#endif /* TG_GEMM_H */
