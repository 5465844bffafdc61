/* onehot.c -- a one-element term of a statement, taken out of the loop
   that picks its element.

   Before:  for n, j:  d_x[j + V*n] += (j == t[n] ? -d_l[n] : 0) + p[j + V*n] * g;
   After:   for n, j:  d_x[j + V*n] += p[j + V*n] * g;
            for n:     d_x[t[n] + V*n] += -d_l[n]   (where 0 <= t[n] < V)
   The cross-entropy's p - onehot as an expert writes it: the update loop
   has no comparison in it (which a vectorizer without 64-bit compares
   cannot vectorize), and a sum over j of such a term is one addition.

   1. A candidate is an addition statement, with no loops of its own and
      no guard, whose value is a sum (also under negations and
      differences) with a term J == E ? A : 0 (te_simplify_points' form),
      J the counter of a loop of its stage that no other loop's extent
      uses, E free of J.
   2. No other statement of the stage reads what it writes: the term may
      be added after the stage's loop runs.
   3. The term leaves the statement; a stage right after it, with the
      stage's other loops, adds A at the element of J = E, where
      0 <= E < the loop's extent (and the select's other conditions
      hold).  Exact: the loop added A there once and 0 elsewhere.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

/* Is N a term J == E ? A : 0 with J the counter of loop *L of S?  */
static bool
point_term (const te_stage *s, const te_node *n, int *l)
{
  te_node *j, *at;
  if (!te_point_select (n, &j, &at))
    return false;
  int var = j->u.index;
  for (int k = 0; k < s->nloops; k++)
    if (s->loops[k].var == var)
      {
        for (int o = 0; o < s->nloops; o++)
          if (o != k && te_uses_var (s->loops[o].extent, var))
            return false;
        *l = k;
        return true;
      }
  return false;
}

/* Split N (negated when NEG) into the point terms of stage S, at most
   MAX into PT (with their signs in PNEG and loops in PL), and the rest,
   added to *REST.  */
static void
split (te_ctx *ctx, const te_stage *s, te_node *n, bool neg, te_node **rest,
       te_node **pt, bool *pneg, int *pl, int *np, int max)
{
  int l;
  if (n->op == TE_ADD || n->op == TE_SUB)
    {
      split (ctx, s, n->args[0], neg, rest, pt, pneg, pl, np, max);
      split (ctx, s, n->args[1], n->op == TE_SUB ? !neg : neg, rest, pt,
             pneg, pl, np, max);
      return;
    }
  if (n->op == TE_NEG)
    {
      split (ctx, s, n->args[0], !neg, rest, pt, pneg, pl, np, max);
      return;
    }
  if (*np < max && point_term (s, n, &l))
    {
      pt[*np] = n;
      pneg[*np] = neg;
      pl[(*np)++] = l;
      return;
    }
  te_node *t = neg ? te_neg (ctx, n) : n;
  *rest = *rest ? te_add (ctx, *rest, t) : t;
}

#define MAX_POINTS 4

/* Take the point terms out of the statements of stage SI; whether it
   did (a stage was inserted after SI).  */
static bool
take_out (te_program *p, int si)
{
  te_ctx *ctx = p->ctx;
  te_stage *s = &p->stages[si];
  if (s->call)
    return false;
  for (int k = 0; k < s->nstmts; k++)
    {
      te_stmt *x = &s->stmts[k];
      if (x->op != TE_ADD_TO || x->guard || x->ninner)
        continue;
      te_node *pt[MAX_POINTS], *rest = NULL;
      bool pneg[MAX_POINTS];
      int pl[MAX_POINTS], np = 0;
      split (ctx, s, x->value, false, &rest, pt, pneg, pl, &np, MAX_POINTS);
      if (!np)
        continue;
      bool read = false;
      for (int o = 0; o < s->nstmts; o++)
        read |= o != k && te_stmt_reads (&s->stmts[o], x->dst);
      if (read)
        continue;
      /* Step 3: one stage per loop the terms pick in (the first).  */
      int l = pl[0];
      te_node *value = NULL;
      te_node *var = NULL, *at = NULL, *guard = NULL;
      for (int i = 0; i < np; i++)
        {
          const te_node *c = pt[i]->args[0];
          te_node *more = c->op == TE_AND ? c->args[1] : NULL;
          const te_node *eq = c->op == TE_AND ? c->args[0] : c;
          /* A term at another element or loop stays, for the next round.  */
          if (pl[i] != l || (i && (eq->args[1] != at || more != guard)))
            {
              te_node *t = pneg[i] ? te_neg (ctx, pt[i]) : pt[i];
              rest = rest ? te_add (ctx, rest, t) : t;
              continue;
            }
          var = eq->args[0];
          at = eq->args[1];
          guard = more;
          te_node *a = pneg[i] ? te_neg (ctx, pt[i]->args[1]) : pt[i]->args[1];
          value = value ? te_add (ctx, value, a) : a;
        }
      te_node *zero = te_int (ctx, 0);
      te_node *within = te_binary (
          ctx, TE_AND, te_binary (ctx, TE_LE, zero, at),
          te_binary (ctx, TE_LT, at, s->loops[l].extent));
      if (guard)
        within = te_binary (ctx, TE_AND, within,
                            te_replace (ctx, guard, var, at));
      te_node *index = te_canon_int (ctx, te_replace (ctx, x->index, var, at));
      value = te_canon_loads (ctx, te_replace (ctx, value, var, at));
      x->value = rest ? rest : te_float (ctx, x->dst->type, 0);
      te_tensor *dst = x->dst;
      te_loc loc = x->loc;
      te_stage *n = te_program_insert_stage (p, si + 1, s->loc);
      s = &p->stages[si];
      n->nest = s->nest;
      for (int o = 0; o < s->nloops; o++)
        if (o != l)
          {
            n->loop_ids[n->nloops] = s->loop_ids[o];
            te_stage_add_loop (n, s->loops[o].var, s->loops[o].extent);
          }
      te_stage_add_stmt (p, n, dst, index, TE_ADD_TO, value, within, loc);
      te_program_note (p, "onehot: the term of %s at one element of the loop "
                       "over %s is added outside it",
                       dst->name, p->var_names && p->var_names[var->u.index]
                                      ? p->var_names[var->u.index] : "it");
      return true;
    }
  return false;
}

bool
te_program_onehot (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int s = 0; s < p->nstages; s++)
    while (take_out (p, s))
      ;
  return true;
}
