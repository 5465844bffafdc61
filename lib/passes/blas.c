/* blas.c -- the matrix products of a backward program, each a stage of
   its own that the back ends run as a CBLAS call
   (-fplugin-arg-tensorgrad-blas), or without the option as the tiled
   product of lib/back/tiled.h (te_program.tiled; then this pass is an
   optimization, not run with no-opt).

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

   0. First, a temporary the gradient computes again as a function of a
      sum that is such a product (an MLP's hidden layer):
          stage 0: for i < n, j < h:
            hid[j + h * i] = tanh (sum (p < d; b1[j]; x[p + i * d] * w1[j + h * p]));
      becomes three stages, the sum a blas stage between its initial
      value and the function applied in place (as accumulate.c does in a
      fused nest):
          stage 0: for i < n, j < h: hid[j + h * i] = b1[j];
          stage 1: for (blas) i < n, j < h, p < d:
            hid[j + h * i] += x[p + i * d] * w1[j + h * p];
          stage 2: for i < n, j < h: hid[j + h * i] = tanh (hid[j + h * i]);
          blas: hid = x * w1 as cblas_sgemm (n, h, d), computed again
      when the stage has that one statement (= of a temporary, no guard,
      no loops of its own, not reading the temporary), its value holds
      one floating sum of the temporary's type over one loop, and the
      sum's statement over the stage's loops and the sum's is a product
      (te_gemm_match).

   Without the option (te_program.tiled), in a gradient that runs on
   OpenMP threads (the forward's parallel loops, the option parallel),
   each tiled product runs on the threads too, each thread on its block
   of the result's columns (plugin/emit.cc, tiled_team).

   A product over a triangle (causal attention's u < t + 1) is one too
   with the CBLAS (gemm.c, te_gemm_tri: a trmm, or a gemm of the box
   whose triangle is added), not tiled.

   Limits: see gemm.c (a product with a third factor that varies, a sum
   over two counters); a product inside a fused nest stays loops.  */

#include "passes/passes.h"
#include "ir/gemm.h"

#include <string.h>

static void
count_reds (te_node *n, void *data)
{
  te_node **r = data;
  if (n->op == TE_REDUCE)
    r[r[0] ? 1 : 0] = n;
}

/* Step 0: stage OS as its three (two when its value is the sum) stages,
   appended to P, when it computes a temporary from a sum that is a
   matrix product; false (nothing appended) otherwise.  */
static bool
split_sum (te_program *p, const te_stage *os)
{
  te_ctx *ctx = p->ctx;
  if (os->call || os->fused || os->reversed || os->recurrent
      || os->nstmts != 1 || os->nloops + 1 > TE_MAX_LOOPS)
    return false;
  const te_stmt *x = &os->stmts[0];
  if (x->op != TE_SET || x->guard || x->ninner
      || x->dst->role != TE_ROLE_TEMP || te_reads (x->value, x->dst))
    return false;
  te_node *r[2] = { NULL, NULL };
  te_walk (x->value, count_reds, r);
  te_node *red = r[0];
  if (!red || r[1] || red->u.red.kind != TE_RED_SUM
      || red->type != x->dst->type || red->u.red.nloops != 1)
    return false;
  te_stage trial = *os;
  trial.loops[trial.nloops] = red->u.red.loops[0];
  trial.loops[trial.nloops].lanes = 0;
  trial.loop_ids[trial.nloops++] = 0;
  te_stmt sum = *x;
  sum.op = TE_ADD_TO;
  sum.value = red->args[1];
  sum.pos = sum.pos_first = 0;
  trial.stmts = &sum;
  te_gemm g;
  const char *why;
  if (!te_gemm_match (p, &trial, 0, &g, &why))
    return false;
  te_stage *a = te_program_add_stage (p, os->loc);
  *a = *os;
  a->stmts = NULL;
  a->nstmts = 0;
  te_stage_add_stmt (p, a, x->dst, x->index, TE_SET, red->args[0], NULL,
                     x->loc);
  te_stage *b = te_program_add_stage (p, os->loc);
  *b = trial;
  b->stmts = NULL;
  b->nstmts = 0;
  b->blas = true;
  *te_stage_add_stmt (p, b, NULL, NULL, TE_SET, NULL, NULL, 0) = sum;
  if (x->value != red)
    {
      te_stage *c = te_program_add_stage (p, os->loc);
      *c = *os;
      c->stmts = NULL;
      c->nstmts = 0;
      te_node *load = te_load (ctx, x->dst, x->index);
      te_stage_add_stmt (p, c, x->dst, x->index, TE_SET,
                         te_replace (ctx, x->value, red, load), NULL, x->loc);
    }
  te_program_note (p, "blas: %s, computed again", te_gemm_text (p, &g));
  return true;
}

bool
te_program_blas (te_program *p, te_diag *diag)
{
  (void) diag;
  int n;
  te_stage *old = te_program_take_stages (p, &n);
  for (int s = 0; s < n; s++)
    {
      const te_stage *os = &old[s];
      if (split_sum (p, os))
        continue;
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
