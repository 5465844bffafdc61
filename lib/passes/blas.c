/* blas.c -- the matrix products of a backward program, each a stage of
   its own that the back ends run as a CBLAS call
   (-fplugin-arg-tensorgrad-blas).

   Before (a dense layer's gradient, as the reverse sweep makes it):
       stage 2: for i < n, j < m, p < k:
         d_x[p + i * k] += w[j + m * p] * d1[j + m * i];
         d_w[j + m * p] += x[p + i * k] * d1[j + m * i];
   After:
       stage 2: for (blas) i < n, j < m, p < k:
         d_x[p + i * k] += w[j + m * p] * d1[j + m * i];
       stage 3: for (blas) i < n, j < m, p < k:
         d_w[j + m * p] += x[p + i * k] * d1[j + m * i];
       blas: d_x = d1 * w^T as cblas_sgemm (n, k, m)
       blas: d_w = x^T * d1 as cblas_sgemm (k, m, n)

   1. In each stage that is not a call, not reversed, not recurrent and
      not fused (its statements are independent: each may run as a loop
      nest of its own, lower.h's TE_LW_EACH), each statement that
      te_gemm_match reads as a product goes to a stage of its own, with
      the same loops, right after the stage, marked blas; the others
      stay, in order.
   2. Later passes leave a blas stage a stage of its own (rows.c does
      not group it, accumulate.c does not rewrite it); the lowering
      (lib/back/lower.c) reads the product again from the stage as the
      passes left it and keeps loops when it no longer is one (a guard
      that zero-guard.c added, a shadow read as 0 when NULL).

   The stage keeps its loops: the MPFR interpreter runs them, and the
   back ends run them when the sizes do not suit the BLAS.  A call sums
   in another order than the loops: the results agree up to the order
   of summation.

   Limits: see gemm.c (a product with a third factor that varies, a sum
   over two counters); a product inside a fused nest (the forward's own,
   recomputed) stays loops.  */

#include "passes/passes.h"
#include "ir/gemm.h"

#include <string.h>

bool
te_program_blas (te_program *p, te_diag *diag)
{
  (void) diag;
  int n = p->nstages;
  te_stage *old = te_alloc (p->ctx, n * sizeof *old);
  memcpy (old, p->stages, n * sizeof *old);
  p->nstages = 0;
  p->stages = NULL;
  for (int s = 0; s < n; s++)
    {
      const te_stage *os = &old[s];
      bool any = false;
      bool gemm[64] = { false };
      if (!os->call && !os->fused && !os->reversed && !os->recurrent
          && os->nstmts <= 64 && !os->blas)
        for (int k = 0; k < os->nstmts; k++)
          {
            te_gemm g;
            const char *why;
            gemm[k] = te_gemm_match (p, os, k, &g, &why);
            if (gemm[k])
              te_program_note (p, "blas: %s", te_gemm_text (p, &g));
            any |= gemm[k];
          }
      te_stage *ns = te_program_add_stage (p, os->loc);
      *ns = *os;
      if (!any)
        continue;
      ns->nstmts = 0;
      ns->stmts = NULL;
      for (int k = 0; k < os->nstmts; k++)
        if (!gemm[k])
          *te_stage_add_stmt (p, ns, NULL, NULL, TE_SET, NULL, NULL, 0)
              = os->stmts[k];
      if (!ns->nstmts)
        p->nstages--;
      for (int k = 0; k < os->nstmts; k++)
        if (gemm[k])
          {
            te_stage *g = te_program_add_stage (p, os->loc);
            *g = *os;
            g->nstmts = 0;
            g->stmts = NULL;
            g->blas = true;
            *te_stage_add_stmt (p, g, NULL, NULL, TE_SET, NULL, NULL, 0)
                = os->stmts[k];
          }
    }
  return true;
}
