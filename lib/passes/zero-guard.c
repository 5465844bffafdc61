/* zero-guard.c -- an adjoint that is zero where a condition fails is added
   only where it holds.

   Before:  for i < n:  d_x[i - 1] += (i > 0 ? x[i - 1] * d_y[i] : 0) * 2;
   After:   for i < n:  if (i > 0) d_x[i - 1] += x[i - 1] * d_y[i] * 2;

   A read the kernel makes only under a condition (y[i] = i > 0 ?
   x[i - 1] : 0) gives an adjoint statement whose every term is zero
   where the condition fails, at an element that may not exist there
   (d_x[-1]): adding zero to it is a read and a write out of bounds.
   With the condition as the statement's guard, the element is touched
   only where the kernel read it.  Skipping an addition of zero changes
   no value, so this is no optimization: it runs with no-opt too.

   A statement qualifies when it adds (TE_ADD_TO) a sum of terms, each a
   select with a zero arm on one condition C, or such a term times
   factors (the sum of products AD makes), and C reads no array: a test
   on counters and sizes, which is what keeps an index in bounds (a
   test on data, a ReLU's, stays a select, which GCC vectorizes where it
   vectorizes no conditional store).  It gets C as its guard (with its
   own, if any) and the selects' other arms as its value.  The pass runs
   last, so that the passes looking for such selects (onehot, points)
   see them first.  */

#include "passes/passes.h"

/* Is N zero where C fails, as  C ? a : 0  or a product with such a
   factor or a sum of such; the value where C holds into *WHERE.  C is
   set by the first select found (NULL: none yet).  */
static bool
zero_unless (te_ctx *ctx, te_node *n, te_node **c, te_node **where)
{
  if (n->op == TE_SELECT && te_is_const (n->args[2], 0)
      && (!*c || *c == n->args[0]))
    {
      *c = n->args[0];
      *where = n->args[1];
      return true;
    }
  if (n->op == TE_ADD)
    {
      te_node *a, *b;
      if (!zero_unless (ctx, n->args[0], c, &a)
          || !zero_unless (ctx, n->args[1], c, &b))
        return false;
      *where = te_binary (ctx, TE_ADD, a, b);
      return true;
    }
  if (n->op == TE_MUL)
    {
      te_node *a;
      for (int k = 0; k < 2; k++)
        if (zero_unless (ctx, n->args[k], c, &a))
          {
            *where = k ? te_binary (ctx, TE_MUL, n->args[0], a)
                       : te_binary (ctx, TE_MUL, a, n->args[1]);
            return true;
          }
    }
  return false;
}

static void
find_load (te_node *n, void *data)
{
  if (n->op == TE_LOAD)
    *(bool *) data = true;
}

bool
te_program_guard (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      for (int k = 0; k < s->nstmts; k++)
        {
          te_stmt *x = &s->stmts[k];
          te_node *c = NULL, *v;
          if (x->op != TE_ADD_TO || !x->value
              || !zero_unless (p->ctx, x->value, &c, &v))
            continue;
          bool loads = false;
          te_walk (c, find_load, &loads);
          if (loads)
            continue;
          x->guard = x->guard ? te_binary (p->ctx, TE_AND, x->guard, c) : c;
          x->value = v;
        }
    }
  return true;
}
