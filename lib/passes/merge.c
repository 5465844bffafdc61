/* merge.c -- an adjoint's elementwise terms, added where its last nest
   adds to the same elements.

   Before:  for j < m, i < n:
              t0[j] += d_y[j + m*i] * (x[j + m*i] - mu[j]);
              d_x[j + m*i] += g[j] * d_y[j + m*i] * r[j];
            for j < m:  d1[j] += ... t0[j] ...;
            for j < m, i < n:
              d_x[j + m*i] += d1[j] * (x[j + m*i] - mu[j]);
   After:   for j < m, i < n:
              t0[j] += d_y[j + m*i] * (x[j + m*i] - mu[j]);
            for j < m:  d1[j] += ... t0[j] ...;
            for j < m, i < n:
              d_x[j + m*i] += d1[j] * (x[j + m*i] - mu[j])
                              + g[j] * d_y[j + m*i] * r[j];
   The reverse sweep adds each term of an adjoint in the stage of the
   forward statement it comes from; a batch norm's d_x gets its direct
   term in the nest that also sums the statistics' adjoints, and the rest
   after them.  Each such nest reads and writes all of d_x.  An expert
   writes d_x once, after the sums, in one expression: one pass over it
   instead of two, and one rounding into it instead of two.

   1. A candidate is an addition statement X, with no guard and no loops
      of its own, whose element moves along every loop of its stage A (A
      neither fused, recurrent, reversed, parallel, a call nor a product
      for the BLAS), whose value does not read its array D, and whose
      stage's other statements do not read D.
   2. The next stage B after A that touches D must add to it, in a
      statement Y of the same kind, over loops of the same extents with
      A's counters named as B's, at the same element; B's other
      statements do not read D.  No stage from A's next to B, B
      included, writes what X's value reads (nor is a call).
   3. Y adds X's value too (renamed), and X goes.  Exact in real
      arithmetic: every element of D gets the same terms, later; the
      rounding of a float adjoint changes as the terms are added
      together first.  Repeated until no statement moves, so the terms
      gather in the last nest.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

/* Does every loop of stage S move INDEX (it uses every counter)?  */
static bool
moves_along_all (const te_stage *s, const te_node *index)
{
  for (int l = 0; l < s->nloops; l++)
    if (!te_uses_var (index, s->loops[l].var))
      return false;
  return true;
}

static bool
plain_stage (const te_stage *s)
{
  return !s->call && !s->fused && !s->recurrent && !s->reversed && !s->par
         && !s->blas && s->nloops > 0;
}

static bool
plain_add (const te_stmt *x)
{
  return x->op == TE_ADD_TO && !x->guard && !x->ninner
         && te_type_is_float (x->dst->type);
}

/* Do other statements of S than K read T?  */
static bool
others_read (const te_stage *s, int k, const te_tensor *t)
{
  for (int o = 0; o < s->nstmts; o++)
    if (o != k && te_stmt_reads (&s->stmts[o], t))
      return true;
  return false;
}

/* Does stage S write what N reads (or is it a call)?  */
static bool
writes_read (const te_stage *s, const te_node *n)
{
  if (s->call)
    return true;
  for (int k = 0; k < s->nstmts; k++)
    if (te_reads (n, s->stmts[k].dst))
      return true;
  return false;
}

/* Steps 2 and 3 for statement K of stage AI; whether it moved.  */
static bool
move (te_program *p, int ai, int k)
{
  te_ctx *ctx = p->ctx;
  te_stage *a = &p->stages[ai];
  te_stmt *x = &a->stmts[k];
  te_tensor *d = x->dst;
  for (int bi = ai + 1; bi < p->nstages; bi++)
    {
      te_stage *b = &p->stages[bi];
      if (writes_read (b, x->value))
        return false;
      if (!te_stage_accesses (b, d))
        continue;
      if (!plain_stage (b) || b->nloops != a->nloops)
        return false;
      for (int l = 0; l < a->nloops; l++)
        if (b->loops[l].start || a->loops[l].start
            || b->loops[l].lanes || a->loops[l].lanes
            || te_rename_counters (ctx, a->loops[l].extent, a->nloops,
                                   a->loops, b->loops) != b->loops[l].extent)
          return false;
      te_node *index = te_canon_int (
          ctx, te_rename_counters (ctx, x->index, a->nloops, a->loops,
                                   b->loops));
      te_node *value
          = te_rename_counters (ctx, x->value, a->nloops, a->loops, b->loops);
      for (int y = 0; y < b->nstmts; y++)
        {
          te_stmt *t = &b->stmts[y];
          if (t->dst != d || !plain_add (t)
              || te_canon_int (ctx, t->index) != index
              || te_reads (t->value, d) || others_read (b, y, d))
            continue;
          t->value = te_binary (ctx, TE_ADD, t->value, value);
          te_program_note (p, "merge: the terms of %s in stage %d are added "
                           "in stage %d, at the same elements", d->name,
                           ai, bi);
          memmove (&a->stmts[k], &a->stmts[k + 1],
                   (a->nstmts - k - 1) * sizeof *a->stmts);
          a->nstmts--;
          return true;
        }
      return false;
    }
  return false;
}

bool
te_program_merge (te_program *p, te_diag *diag)
{
  (void) diag;
  bool again = true;
  while (again)
    {
      again = false;
      for (int s = 0; s < p->nstages; s++)
        {
          te_stage *a = &p->stages[s];
          if (!plain_stage (a))
            continue;
          for (int k = 0; k < a->nstmts; k++)
            {
              te_stmt *x = &a->stmts[k];
              if (!plain_add (x) || !moves_along_all (a, x->index)
                  || te_reads (x->value, x->dst)
                  || others_read (a, k, x->dst))
                continue;
              if (move (p, s, k))
                {
                  again = true;
                  break;
                }
            }
        }
    }
  te_program_drop_empty (p);
  return true;
}
