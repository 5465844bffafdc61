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

/* A product over a triangle (te_gemm.tri): the extent of one of the
   row, column and sum counters is another one's plus 1, x <= y (causal
   attention's u < t + 1).  */
typedef enum te_gemm_tri
{
  TE_GEMM_BOX,   /* none: every counter's extent free of the others */
  TE_GEMM_TRI_A, /* between the row and the sum: op (A) is triangular,
                    M = K; the call is a trmm from the left, in place on
                    a copy of op (B), added to C */
  TE_GEMM_TRI_B, /* between the column and the sum: op (B) triangular,
                    N = K, a trmm from the right on a copy of op (A) */
  TE_GEMM_TRI_C  /* between the row and the column: the whole product
                    into a scratch (gemm, beta 0), its triangle added to
                    C */
} te_gemm_tri;

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
  te_gemm_tri tri;            /* M, N, K are then the box's */
  bool tri_upper;             /* TRI_A, TRI_B: the terms lie in the stored
                                 factor's upper triangle (the trmm's
                                 CblasUpper), else its lower one; TRI_C:
                                 C's row <= column, else column <= row */
} te_gemm;

/* Is statement K of stage S of P such a product?  Fills *G and returns
   true, or returns false with *WHY (a fixed phrase) saying what is not.
   A triangle only where P's products are the CBLAS's (not
   te_program.tiled).  Makes canonical index nodes in P's context.  */
bool te_gemm_match (te_program *p, const te_stage *s, int k, te_gemm *g,
                    const char **why);

/* Does product G, read off stage S of P, write every element of its
   destination, a local array, once per run of S: is the statement's
   index over the batch loops, the rows and the columns their row-major
   number, none of them starting past 0, and the array's size the number
   of their iterations?  Then the product may assign (beta 0) into an
   array nothing wrote before, not add to a zeroed one.  */
bool te_gemm_fills (te_program *p, const te_stage *s, const te_gemm *g);

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

/* The patches of a product over several loops (a convolution's im2col)
   as a matrix in a local array of Q: P[(b KK + kk) ROW + pix], with b
   the iteration of batch loops B[0..NB), kk that of the loops KK[0..NKK)
   and pix that of PIX[0..NPIX) (te_linearize each, row-major): one
   KK by PIX matrix per batch iteration, the pixels along its rows, ROW
   apart: PIX, or with PAD PIX and a cache line more (64 bytes), never
   read, so that rows of a multiple of 4 KB (32 x 32 floats) do not all
   fall in one set of the cache where a product packs the matrix across
   its rows (OpenBLAS's packing of bench/conv2d.c's x.col in d_wt's
   product: its gradient 5.7 ms with rows of 1024 floats, 4.7 with
   1040).  */
typedef struct te_patches
{
  te_tensor *t;                      /* P, TE_TK_LOCAL, its size set */
  te_node *lin_b, *lin_kk, *lin_pix; /* each group's iteration */
  te_node *n_kk, *n_pix;             /* KK, PIX */
  te_node *row;                      /* ROW */
  te_node *index;                    /* P's element at lin_b, lin_kk,
                                        lin_pix */
} te_patches;

/* Add P, named NAME, of TYPE, to Q and fill *PP; false (nothing added)
   when an extent uses a counter.  PAD: rows a cache line longer than
   PIX, for a matrix the products only read (a product that fills P
   needs rows of PIX: lib/back/lower.c step 6c).  */
bool te_gemm_patches (te_program *q, const char *name, te_type type,
                      te_loc loc, const te_loop *b, int nb,
                      const te_loop *kk, int nkk, const te_loop *pix,
                      int npix, bool pad, te_patches *pp);
/* P's element at batch iteration B, kk KK and pix PIX (integer nodes).  */
te_node *te_gemm_patch_index (te_ctx *ctx, const te_patches *pp, te_node *b,
                              te_node *kk, te_node *pix);
/* Append to Q the packing stage, over the loops B, KK and PIX:
   P[index] = VALUE where GUARD holds (NULL: everywhere; P starts zeroed,
   so the padding's zeros stay).  */
te_stage *te_gemm_pack (te_program *q, const te_patches *pp,
                        const te_loop *b, int nb, const te_loop *kk, int nkk,
                        const te_loop *pix, int npix, te_node *value,
                        te_node *guard, te_loc loc, te_loc stmt_loc);
/* Do the loops LOOPS[0..N) (outermost first) move INDEX as one counter
   of their row-major iteration would, times the innermost's coefficient,
   which goes to *STEP?  */
bool te_gemm_dense_chain (te_ctx *ctx, te_node *index, const te_loop *loops,
                          int n, te_node **step);
/* The coefficients of INDEX along the counters of S into COEF (one per
   loop), free of counters and loads; false when INDEX is no affine
   function of them.  */
bool te_gemm_affine (te_ctx *ctx, const te_stage *s, te_node *index,
                     te_node **coef);
/* V as ALPHA times two loads of TYPE (LOADS[0..2)), its other factors
   floating constants and negations; false otherwise.  */
bool te_gemm_product (te_node *v, te_type type, double *alpha,
                      te_node **loads);
/* INDEX with the counters of LOOPS[0..N) replaced by 0, canonical.  */
te_node *te_gemm_at_zero (te_ctx *ctx, te_node *index, const te_loop *loops,
                          int n);

/* The CBLAS function for G: "cblas_sgemm" or "cblas_dgemm", for
   TRI_A and TRI_B "cblas_strmm" or "cblas_dtrmm".  */
const char *te_gemm_function (const te_gemm *g);
/* The CBLAS's gemm (TRMM false) or trmm for elements of TYPE.  */
const char *te_blas_function (te_type type, bool trmm);

#endif /* TG_GEMM_H */
