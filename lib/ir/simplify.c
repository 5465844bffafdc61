/* simplify.c -- rules of the simplifier that the constructors (te.c) do
   not apply as they build a node, because they look through a whole
   product: passes of the gradient call them on what they rewrote.

   Before:  p[j] * (g[j] + (j == t ? -(d / p[t]) : 0))
   After:   p[j] * g[j] + (j == t ? -d : 0)

   1. A product with a factor c ? A : 0, c a counter J equal to an
      expression E (also c && more), is c ? X * A : 0 with J replaced by
      E in the other factors X: where c holds they are the same.  A sum
      among the factors with such an addend is distributed first:
      X * (B + S) is X * B + X * S.
   2. In a product, a factor Y and a factor A / Y (or -(A / Y)) are A
      (negated): a division by a stored value multiplied by the same
      value cancels.  Exact in real arithmetic; at Y = 0 or infinity the
      product was NaN and is A now.  */

#include "ir/te.h"
#include "ir/index.h"

#include <string.h>

#define MAX_FACTORS 16

static te_node *
product (te_ctx *ctx, te_node **f, int n)
{
  te_node *r = f[0];
  for (int i = 1; i < n; i++)
    r = te_mul (ctx, r, f[i]);
  return r;
}

/* N's factors, through products and negations (*NEG flipped for each),
   appended to F[*N..MAX); false when there are more.  */
static bool
flatten (te_node *n, te_node **f, int *nf, int max, bool *neg)
{
  if (n->op == TE_NEG)
    {
      *neg = !*neg;
      return flatten (n->args[0], f, nf, max, neg);
    }
  if (n->op == TE_MUL)
    return flatten (n->args[0], f, nf, max, neg)
           && flatten (n->args[1], f, nf, max, neg);
  if (*nf == max)
    return false;
  f[(*nf)++] = n;
  return true;
}

/* Rule 2 on the N factors IN; their product.  */
static te_node *
cancel_quotients (te_ctx *ctx, te_node **in, int nin)
{
  te_node *f[MAX_FACTORS];
  int n = 0;
  bool neg = false, again = true;
  for (int i = 0; i < nin; i++)
    if (!flatten (in[i], f, &n, MAX_FACTORS, &neg))
      return product (ctx, in, nin);
  while (again)
    {
      /* What a cancellation left (a quotient's numerator) flat again.  */
      te_node *g[MAX_FACTORS];
      int ng = 0;
      for (int i = 0; i < n; i++)
        if (!flatten (f[i], g, &ng, MAX_FACTORS, &neg))
          return product (ctx, in, nin);
      memcpy (f, g, ng * sizeof *g);
      n = ng;
      again = false;
      for (int i = 0; i < n && !again; i++)
        {
          /* flatten took the negations out.  */
          te_node *q = f[i];
          if (q->op != TE_DIV)
            continue;
          for (int k = 0; k < n && !again; k++)
            if (k != i && f[k] == q->args[1])
              {
                f[i] = q->args[0];
                f[k] = f[--n];
                again = true;
              }
        }
    }
  te_node *r = n ? product (ctx, f, n) : NULL;
  if (!r)
    return te_float (ctx, in[0]->type, neg ? -1 : 1);
  return neg ? te_neg (ctx, r) : r;
}

bool
te_point_select (const te_node *n, te_node **var, te_node **at)
{
  if (n->op != TE_SELECT || !te_type_is_float (n->type)
      || !te_is_const (n->args[2], 0))
    return false;
  const te_node *c = n->args[0];
  if (c->op == TE_AND)
    c = c->args[0];
  if (c->op != TE_EQ || c->args[0]->op != TE_VAR
      || te_uses_var (c->args[1], c->args[0]->u.index))
    return false;
  *var = c->args[0];
  *at = c->args[1];
  return true;
}

/* The addends of sum N, through nested sums, at most MAX into T; their
   number, or -1 when there are more.  */
static int
addends (te_node *n, te_node **t, int max)
{
  if (n->op != TE_ADD)
    {
      if (max < 1)
        return -1;
      t[0] = n;
      return 1;
    }
  int a = addends (n->args[0], t, max);
  int b = a < 0 ? -1 : addends (n->args[1], t + a, max - a);
  return b < 0 ? -1 : a + b;
}

/* Does N contain a select of rule 1 outside reductions?  */
static bool
has_point (const te_node *n)
{
  te_node *v, *a;
  if (te_point_select (n, &v, &a))
    return true;
  if (n->op == TE_REDUCE)
    return false;
  for (int i = 0; i < te_op_arity (n->op); i++)
    if (has_point (n->args[i]))
      return true;
  return false;
}

te_node *
te_simplify_points (te_ctx *ctx, te_node *n)
{
  if (!has_point (n))
    return n;
  if (n->op == TE_MUL)
    {
      te_node *f[MAX_FACTORS];
      int nf = te_factors (n, f, MAX_FACTORS);
      for (int i = 0; i < nf; i++)
        {
          te_node *var, *at;
          if (te_point_select (f[i], &var, &at))
            {
              te_node *s = f[i];
              f[i] = te_canon_loads (ctx,
                                     te_simplify_points (ctx, s->args[1]));
              for (int k = 0; k < nf; k++)
                if (k != i)
                  f[k] = te_canon_loads (ctx, te_replace (ctx, f[k], var, at));
              return te_select (ctx, s->args[0],
                                cancel_quotients (ctx, f, nf), s->args[2]);
            }
          if (f[i]->op != TE_ADD)
            continue;
          te_node *terms[MAX_FACTORS];
          int nt = addends (f[i], terms, MAX_FACTORS);
          te_node *rest = NULL, *points = NULL;
          int npoints = 0;
          for (int t = 0; t < nt; t++)
            if (!te_point_select (terms[t], &var, &at))
              rest = rest ? te_add (ctx, rest, terms[t]) : terms[t];
            else
              npoints++;
          /* No addend of rule 1 (it may be deeper, in a quotient): the
             sum stays.  REST rebuilt would be the sum reassociated, which
             the next call would reassociate back.  */
          if (nt < 0 || npoints == 0)
            continue;
          te_node *g[MAX_FACTORS];
          memcpy (g, f, nf * sizeof *f);
          for (int t = 0; t < nt; t++)
            if (te_point_select (terms[t], &var, &at))
              {
                g[i] = terms[t];
                te_node *x = te_simplify_points (ctx, product (ctx, g, nf));
                points = points ? te_add (ctx, points, x) : x;
              }
          if (!rest)
            return points;
          g[i] = rest;
          return te_add (ctx, te_simplify_points (ctx, product (ctx, g, nf)),
                         points);
        }
    }
  if (n->op == TE_REDUCE)
    return n;
  te_node *args[3] = { NULL, NULL, NULL };
  for (int i = 0; i < te_op_arity (n->op); i++)
    args[i] = te_simplify_points (ctx, n->args[i]);
  return te_rebuild (ctx, n, args);
}
