/* center.c -- a sum of deviations from their own mean is zero.

   Before (batch norm's backward program, as the reverse sweep leaves it):
       s[j] = sum (i < n; 0; x[j + m*i]);
       for j < m, i < n:
         d_x[j + m*i] += (x[j + m*i] - s[j] / n) * d1[j] * 2;
         d_s[j] += -((x[j + m*i] - s[j] / n) * d1[j] * 2 / n);
   After: the statement adding to d_s is gone.  Over i it adds
   -2 d1[j] / n * sum_i (x[j + m*i] - s[j] / n), and the deviations of
   x from their mean s[j] / n sum to zero: the variance's dependence on
   the mean it subtracts, which an expert knows to be none.  In floating
   point the terms do not cancel exactly; the gradient without them is
   the exact one's rounding (as for cancel.c's maximum).

   1. A candidate is a statement T[w] += V of stage S, with no guard and
      no loops of its own, and a loop L of S (counter i, from 0 to E)
      that neither W nor another loop's extent uses: over L the statement
      adds up V.
   2. V is centered in i: a sum or difference of centered values, a
      negation of one, a product of one with a value free of i, or a
      quotient of one by such a value; or a deviation A - M, A a value of
      i and M a mean of A over i: a load P[r] (or P[r] / c, c a cast of
      E) where the one statement writing P sets P[r'] = sum (i' < E'; 0;
      A') / E' (or sum (...), then the quotient by E here), A' being A
      with i' for i, E' equal to E, and r the element the statement
      wrote at the same outer counters; P's statement may be the forward
      program's (a mean the kernel stores in an output, which the
      gradient reads back), and may itself read such an array.
      Every array A reads is an input or set by one statement, so the
      sum and the deviations read the same values.
   3. Such a statement adds zero: it is dropped, with the note
      "center: T gets no term from ...".

   Limits: only the mean as a quotient of the sum by the loop's extent
   (not a product by its reciprocal, not a weighted mean); no statement
   with a guard (it would not run over all of L).  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

/* Is N the extent E, through the casts around it ((float) n)?  */
static bool
is_extent (te_ctx *ctx, const te_node *n, te_node *e)
{
  while (n->op == TE_CAST)
    n = n->args[0];
  return te_canon_int (ctx, (te_node *) n) == te_canon_int (ctx, e);
}

/* The statement that writes T in program PR (its stage into *IN), if
   exactly one does and it sets (=) without a guard or loops of its own;
   else NULL.  */
static const te_stmt *
only_writer (const te_program *pr, const te_tensor *t, const te_stage **in)
{
  const te_stmt *w = NULL;
  for (int s = 0; s < pr->nstages; s++)
    {
      const te_stage *sg = &pr->stages[s];
      if (sg->call && te_call_passes (sg, t, false))
        return NULL;
      for (int k = 0; k < sg->nstmts; k++)
        if (sg->stmts[k].dst == t)
          {
            if (w)
              return NULL;
            w = &sg->stmts[k];
            *in = sg;
          }
    }
  return w && w->op == TE_SET && !w->guard && !w->ninner ? w : NULL;
}

/* What load M, read at stage S of PR, holds: the value of the one
   statement that writes it (in PR, or in its forward program for an
   array the gradient only reads: a layer norm's mean as an output),
   with that statement's loops named as S's (each one of S's but VAR's
   loop, of the same extent, such that it wrote the element M reads);
   NULL if there is no such statement.  */
static te_node *
definition (const te_program *pr, const te_stage *s, const te_node *m,
            int var)
{
  te_ctx *ctx = pr->ctx;
  const te_stage *ws = NULL;
  const te_stmt *w = only_writer (pr, m->u.tensor, &ws);
  if (!w && pr->forward)
    {
      for (int t = 0; t < pr->nstages; t++)
        for (int k = 0; k < pr->stages[t].nstmts; k++)
          if (pr->stages[t].stmts[k].dst == m->u.tensor)
            return NULL; /* written here too */
      w = only_writer (pr->forward, m->u.tensor, &ws);
    }
  if (!w || ws->nloops > TE_MAX_LOOPS)
    return NULL;
  te_loop to[TE_MAX_LOOPS];
  bool used[TE_MAX_LOOPS * 2] = { false };
  for (int k = 0; k < ws->nloops; k++)
    {
      int found = -1;
      for (int o = 0; o < s->nloops && found < 0; o++)
        if (!used[o] && s->loops[o].var != var
            && te_canon_int (ctx, s->loops[o].extent)
                   == te_canon_int (ctx, ws->loops[k].extent))
          found = o;
      if (found < 0)
        return NULL;
      used[found] = true;
      to[k] = s->loops[found];
    }
  /* No counter of S that the value already uses under another meaning
     (the programs number their counters alike).  */
  for (int o = 0; o < s->nloops; o++)
    {
      bool renamed = false;
      for (int k = 0; k < ws->nloops; k++)
        renamed |= ws->loops[k].var == s->loops[o].var;
      if (!renamed && te_uses_var (w->value, s->loops[o].var))
        return NULL;
    }
  te_node *widx = te_canon_int (
      ctx, te_rename_counters (ctx, w->index, ws->nloops, ws->loops, to));
  if (widx != te_canon_int (ctx, m->args[0]))
    return NULL;
  return te_rename_counters (ctx, w->value, ws->nloops, ws->loops, to);
}

/* Is M, read at stage S, the mean over counter VAR (extent E) of A: a
   sum over one loop of E iterations, from 0, of A (its counter put for
   VAR), divided by E; through loads of arrays that hold such a value or
   its sum (step 2).  */
static bool
mean_of_a (const te_program *pr, const te_stage *s, const te_node *m,
           const te_node *a, int var, te_node *e)
{
  te_ctx *ctx = pr->ctx;
  bool divided = false;
  for (int depth = 0; depth < 4; depth++)
    {
      if (m->op == TE_DIV && !divided)
        {
          if (!is_extent (ctx, m->args[1], e))
            return false;
          m = m->args[0];
          divided = true;
        }
      else if (m->op == TE_LOAD)
        {
          if (!(m = definition (pr, s, m, var)))
            return false;
        }
      else if (m->op == TE_REDUCE && divided)
        {
          if (m->u.red.kind != TE_RED_SUM || m->u.red.nloops != 1
              || m->u.red.loops[0].start
              || !(m->args[0]->op == TE_CONST && m->args[0]->u.f == 0)
              || te_canon_int (ctx, m->u.red.loops[0].extent)
                     != te_canon_int (ctx, e))
            return false;
          int rv = m->u.red.loops[0].var;
          if (rv != var && te_uses_var (m->args[1], var))
            return false; /* VAR means something else in the body */
          return te_replace (ctx, m->args[1], te_var (ctx, rv),
                             te_var (ctx, var))
                 == a;
        }
      else
        return false;
    }
  return false;
}

/* Does every array A reads hold one value throughout: an input, or an
   array one statement of PR sets?  (Then the sum that made the mean and
   the deviations read the same elements.)  */
typedef struct stable_query
{
  const te_program *pr;
  bool ok;
} stable_query;

static void
stable_load (te_node *n, void *data)
{
  stable_query *q = data;
  const te_stage *ws;
  if (n->op == TE_LOAD && n->u.tensor->role != TE_ROLE_INPUT
      && !only_writer (q->pr, n->u.tensor, &ws))
    q->ok = false;
}

static bool
stable (const te_program *pr, const te_node *a)
{
  stable_query q = { pr, true };
  te_walk ((te_node *) a, stable_load, &q);
  return q.ok;
}

/* Is V centered in counter VAR of stage S (extent E): step 2.  */
static bool
centered (const te_program *pr, const te_stage *s, const te_node *v, int var,
          te_node *e)
{
  switch (v->op)
    {
    case TE_NEG:
      return centered (pr, s, v->args[0], var, e);
    case TE_ADD:
      return centered (pr, s, v->args[0], var, e)
             && centered (pr, s, v->args[1], var, e);
    case TE_SUB:
      if (centered (pr, s, v->args[0], var, e)
          && centered (pr, s, v->args[1], var, e))
        return true;
      return te_uses_var (v->args[0], var) && !te_uses_var (v->args[1], var)
             && stable (pr, v->args[0])
             && mean_of_a (pr, s, v->args[1], v->args[0], var, e);
    case TE_MUL:
      return (centered (pr, s, v->args[0], var, e)
              && !te_uses_var (v->args[1], var))
             || (centered (pr, s, v->args[1], var, e)
                 && !te_uses_var (v->args[0], var));
    case TE_DIV:
      return centered (pr, s, v->args[0], var, e)
             && !te_uses_var (v->args[1], var);
    default:
      return false;
    }
}

bool
te_program_center (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      if (s->call || s->recurrent || s->reversed)
        continue;
      for (int k = 0; k < s->nstmts; k++)
        {
          te_stmt *st = &s->stmts[k];
          if (st->op != TE_ADD_TO || st->guard || st->ninner)
            continue;
          for (int l = 0; l < s->nloops; l++)
            {
              const te_loop *lp = &s->loops[l];
              bool free = !lp->start && !te_uses_var (st->index, lp->var);
              for (int o = 0; o < s->nloops && free; o++)
                free = !te_uses_var (s->loops[o].extent, lp->var);
              if (!free || !centered (p, s, st->value, lp->var, lp->extent))
                continue;
              te_program_note (p, "center: %s gets no term from the "
                                  "deviations over %s from their mean, "
                                  "which sum to zero",
                               st->dst->name,
                               te_program_var_name (p, lp->var));
              memmove (st, st + 1, (s->nstmts - 1 - k) * sizeof *st);
              s->nstmts--;
              k--;
              break;
            }
        }
    }
  return true;
}
