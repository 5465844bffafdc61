/* gather.c -- the additions one iteration makes to one element, as one.

   Before:  stage: for (fused) r < n, i < 2:
              d_c[2*i] += a[4*r + 2*i + 1] * d_y[4*r + 2*i + 1];
              d_a[4*r + 2*i] += ...;
              d_c[2*i] += a[4*r + 2*i] * d_y[4*r + 2*i];
   After:   stage: for (fused) r < n, i < 2:
              d_c[2*i] += a[4*r + 2*i + 1] * d_y[4*r + 2*i + 1]
                          + a[4*r + 2*i] * d_y[4*r + 2*i];
              d_a[4*r + 2*i] += ...;
   The reverse sweep adds each forward statement's terms on their own;
   when rows.c runs the nests of two forward statements as one (a complex
   multiply's real and imaginary parts), an element gets two additions in
   one iteration.  An expert adds the terms and stores once.  It matters
   beyond the extra load and store: GCC 12.2's loop vectorizer, at -O3,
   makes such repeated additions to elements an outer loop does not move
   into a chain of in-order reductions and counts some terms twice (GCC
   PR 110381, fixed in later releases); the fuzzer found the gradient
   above wrong by that.

   1. In a stage that is neither a call nor a product for the BLAS, a
      statement Y adds (no guard, or X's; no loops of its own) to the
      element an earlier statement X of the same kind adds to, at the
      same canonical index, and neither value reads the array D.
   2. No statement between X and Y reads D or sets an element of D, and
      none writes what Y's value reads (Y's terms move up to X) or none
      writes what X's value reads (X's move down to Y).
   3. The one that stays adds X's value, then Y's, and the other goes.
      Exact in real arithmetic; a
      float element's rounding changes as the terms are added together
      first, as merge.c's does.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

static bool
plain_add (const te_stmt *x)
{
  return x->op == TE_ADD_TO && !x->ninner && !x->lanes_sum
         && te_type_is_float (x->dst->type) && !te_reads (x->value, x->dst);
}

/* Step 2 for the statements of S strictly between X and Y, with the
   value of statement M moving past them.  */
static bool
passable (const te_stage *s, int x, int y, int m)
{
  const te_tensor *d = s->stmts[y].dst;
  for (int k = x + 1; k < y; k++)
    {
      const te_stmt *t = &s->stmts[k];
      if (te_stmt_reads (t, d) || (t->dst == d && t->op != TE_ADD_TO)
          || te_reads (s->stmts[m].value, t->dst))
        return false;
    }
  return true;
}

bool
te_program_gather (te_program *p, te_diag *diag)
{
  (void) diag;
  te_ctx *ctx = p->ctx;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      if (s->call || s->blas)
        continue;
      for (int y = 1; y < s->nstmts; y++)
        {
          te_stmt *ys = &s->stmts[y];
          if (!plain_add (ys))
            continue;
          te_node *index = te_canon_int (ctx, ys->index);
          for (int x = y - 1; x >= 0; x--)
            {
              te_stmt *xs = &s->stmts[x];
              if (xs->dst != ys->dst)
                continue;
              if (!plain_add (xs))
                break;
              if (xs->guard != ys->guard
                  || te_canon_int (ctx, xs->index) != index)
                continue; /* another element: step 2 decides */
              int keep = passable (s, x, y, y)   ? x
                         : passable (s, x, y, x) ? y
                                                 : -1;
              if (keep < 0)
                break;
              int drop = keep == x ? y : x;
              s->stmts[keep].value
                  = te_binary (ctx, TE_ADD, xs->value, ys->value);
              te_program_note (p, "gather: stage %d adds statement %d's "
                               "terms of %s in statement %d, at the same "
                               "element", si, drop, ys->dst->name, keep);
              memmove (&s->stmts[drop], &s->stmts[drop + 1],
                       (s->nstmts - drop - 1) * sizeof *s->stmts);
              s->nstmts--;
              y--;
              break;
            }
        }
    }
  return true;
}
