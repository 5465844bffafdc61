/* schedule.c -- loop order of the backward program's statements.

   Before:  for i < n, j < m, p < k:  d_w[p*m + j] += d0[i*m + j] * x[i*k + p];
   After:   for i < n, p < k, j < m:  d_w[p*m + j] += d0[i*m + j] * x[i*k + p];

   The AD gives every adjoint statement the forward's loop order, which
   for a contraction's adjoints walks memory with a large stride in the
   innermost loop, and GCC's vectorizer then gives up.  Any loop order
   computes the same statement: it only adds to elements, and the terms
   for one element keep their relative order along every loop that runs
   forwards.  (The order of the terms of one element does change when
   two loops its index does not use swap: floating-point sums may differ
   in their last bits.)

   1. Split every stage that is not fused into one stage per statement,
      so each statement can have its own order.
   2. For a statement whose loops all have extents free of counters,
      move innermost the loop with the best score: +1 for each access it
      walks with unit stride, -3 for each it walks with a larger stride,
      the written element counting +2 (a unit-stride store vectorizes
      without reassociating a sum; a sum into one element does not),
      -2 for a loop of a constant extent below 16 (a convolution's
      window: the vectorizer splits it, lanes.c leaves it alone).
      Ties go to the forward's innermost loop.  The other loops keep
      their order.
   3. Consecutive statements of one stage that get the same order go
      back into one loop nest (fused): they read nothing the others
      write, so each iteration may run them all.  (Two that add to one
      element at different iterations then add in another order.)

   A loop whose counter bounds a loop inside it (t in u < t + 1, a
   triangular domain) is no candidate: moving it innermost would leave
   u's bound undefined; any other loop may go innermost, the loops its
   own bound uses staying outside it (the others keep their order).
   A causal attention's adjoint of its scores, e_att[u] += v[u][i] *
   d1[i] over u < t + 1, i < hs, so gets i innermost, a dot product,
   instead of the forward's u innermost, a stride of a row of qkv.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

typedef struct stride_count
{
  te_ctx *ctx;
  int var;
  int n;
} stride_count;

/* Does INDEX step by exactly one element when counter VAR does?  */
static bool
unit_stride (te_ctx *ctx, te_node *index, int var)
{
  return te_index_step (ctx, index, var) == 1;
}

/* A load that steps one element per iteration of the loop counts one;
   a load that steps by more counts minus three (a strided access defeats
   the vectorizer and the cache, which matters more than anything a unit
   stride gains); a load the loop does not move is free.  */
static void
count_loads (te_node *n, void *data)
{
  stride_count *c = data;
  if (n->op != TE_LOAD || n->u.tensor->kind == TE_TK_SCALAR)
    return;
  if (unit_stride (c->ctx, n->args[0], c->var))
    c->n++;
  else if (te_uses_var (n->args[0], c->var))
    c->n -= 3;
}

/* Step 2 for statement ST over NLOOPS LOOPS, reordered in place.  */
static void
order_loops (te_ctx *ctx, const te_stmt *st, int nloops, te_loop *loops)
{
  int best = nloops - 1, best_score = -1;
  for (int k = 0; k < nloops; k++)
    {
      /* Loop K may go innermost when no loop inside it bounds its
         counter (u < t + 1 inside t < T keeps t outside u).  */
      bool bounds_inner = false;
      for (int j = k + 1; j < nloops; j++)
        bounds_inner |= te_uses_var (loops[j].extent, loops[k].var);
      if (bounds_inner)
        continue;
      stride_count c = { ctx, loops[k].var, 0 };
      te_walk (st->value, count_loads, &c);
      int score = c.n;
      if (unit_stride (ctx, st->index, loops[k].var))
        score += 2;
      else if (te_uses_var (st->index, loops[k].var))
        score -= 3;
      if (!te_lanes_long_loop (&loops[k]))
        score -= 2;
      if (score > best_score || (score == best_score && k == nloops - 1))
        {
          best = k;
          best_score = score;
        }
    }
  te_loop inner = loops[best];
  memmove (&loops[best], &loops[best + 1],
           (nloops - 1 - best) * sizeof *loops);
  loops[nloops - 1] = inner;
}

bool
te_program_schedule (te_program *p, te_diag *diag)
{
  (void) diag;
  int n;
  te_stage *old = te_program_take_stages (p, &n);
  for (int s = 0; s < n; s++)
    {
      const te_stage *os = &old[s];
      if (os->fused || os->nstmts <= 1)
        {
          te_stage *ns = te_program_add_stage (p, os->loc);
          *ns = *os;
          if (!os->fused && os->nstmts == 1 && !os->stmts[0].ninner
              && !os->reversed)
            order_loops (p->ctx, &ns->stmts[0], ns->nloops, ns->loops);
          continue;
        }
      int prev = -1; /* the stage the previous statement went to */
      for (int k = 0; k < os->nstmts; k++)
        {
          const te_stmt *st = &os->stmts[k];
          te_loop loops[TE_MAX_LOOPS];
          memcpy (loops, os->loops, sizeof loops);
          if (!st->ninner && !os->reversed)
            order_loops (p->ctx, st, os->nloops, loops);
          /* Step 3: statements of one stage that want the same order
             share one loop nest.  */
          te_stage *ns;
          if (prev >= 0 && !st->ninner && !p->stages[prev].stmts[0].ninner
              && te_loops_equal (loops, p->stages[prev].loops,
                                 os->nloops))
            {
              ns = &p->stages[prev];
              ns->fused = true;
            }
          else
            {
              ns = te_program_add_stage (p, os->loc);
              *ns = *os;
              ns->nstmts = 0;
              ns->stmts = NULL;
              memcpy (ns->loops, loops, sizeof loops);
              prev = p->nstages - 1;
            }
          te_stmt *c = te_stage_add_stmt (p, ns, st->dst, st->index, st->op,
                                          st->value, st->guard, st->loc);
          c->ninner = st->ninner;
          c->inner = st->inner;
        }
    }
  return true;
}
