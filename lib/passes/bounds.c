/* bounds.c -- a loop whose statements all run below a bound on its
   counter runs to that bound.

   Before:  stage 1: for t < T, u < T:
              p[T*t + u] = sum (...)        where !(u > t)
   After:   stage 1: for t < T, u < t + 1:
              p[T*t + u] = sum (...)        where !(u > t)

   A loop skipped with continue past a bound (if (u > t) continue; in a
   causal row) gives every statement after the continue the guard
   u <= t; the loop's other iterations do nothing.  Ending the loop at
   the bound gives the stage the triangular domain the later passes know
   (rows written for u <= t, read back by the next loop of the row), as
   if the source had written u <= t in the loop header.

   1. For a loop V of a stage without a call, every statement's guard
      is a conjunction one of whose terms is V + K < R (also as <=, >,
      >= or negated), R free of V and of the loops inside it, the same
      bound E = R - K for all.
   2. E is no more than V's extent wherever the loops outside run.
   Then V's extent is E; a guard that is that bound alone is dropped,
   others stay (they hold wherever the loop now runs).  Each change is
   noted.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#define MAX_TERMS 16

/* The bound E on loop K of stage S that guard G gives (V + K' < R with
   R free of V and the loops inside), or NULL.  WANT: the bound another
   statement gave, which this one must give too.  */
static te_node *
bound_of (te_ctx *ctx, const te_stage *s, int k, te_node *g, te_node *want,
          bool *only)
{
  te_node *ls[MAX_TERMS], *rs[MAX_TERMS];
  int other = 0;
  int n = te_conjunct_less (ctx, g, false, ls, rs, MAX_TERMS, &other);
  *only = n == 1 && other == 0;
  for (int i = 0; i < n; i++)
    {
      te_node *e = te_less_bound (ctx, ls[i], rs[i], k, s->nloops, s->loops);
      if (e && (!want || e == want))
        return e;
    }
  return NULL;
}

bool
te_program_bounds (te_program *p, te_diag *diag)
{
  (void) diag;
  te_ctx *ctx = p->ctx;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      if (s->call || !s->nstmts)
        continue;
      for (int k = 0; k < s->nloops; k++)
        {
          te_node *e = NULL;
          bool all = true;
          for (int i = 0; i < s->nstmts && all; i++)
            {
              te_stmt *st = &s->stmts[i];
              bool only;
              te_node *b = st->guard && !st->ninner
                               ? bound_of (ctx, s, k, st->guard, e, &only)
                               : NULL;
              all = b != NULL;
              e = b;
            }
          if (!all || e == te_canon_int (ctx, s->loops[k].extent))
            continue;
          te_node *d = te_canon_int (ctx, te_sub (ctx, s->loops[k].extent, e));
          te_node *lo, *hi;
          if (!te_non_negative_where_run (ctx, d, s, s)
              && !(te_index_range (ctx, d, k, s->loops, &lo, &hi)
                   && te_non_negative_where_run (ctx, lo, s, s)))
            continue;
          te_program_note (p, "bounds: the loop over %s runs to %s, where "
                              "its statements run",
                           p->var_names[s->loops[k].var]
                               ? p->var_names[s->loops[k].var]
                               : "its counter",
                           te_node_string (p, e));
          s->loops[k].extent = e;
          /* A guard that is the bound alone holds everywhere now.  */
          for (int i = 0; i < s->nstmts; i++)
            {
              bool only;
              bound_of (ctx, s, k, s->stmts[i].guard, e, &only);
              if (only)
                s->stmts[i].guard = NULL;
            }
        }
    }
  return true;
}
