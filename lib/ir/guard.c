/* guard.c -- simplifying disjunctions of path conditions.

   The lifter computes the condition under which a block runs as the OR,
   over its incoming edges, of (condition of the predecessor AND condition
   of the edge).  For structured code that OR collapses:

     if (c) A; else B;  J:      guard (J) = (g && c) || (g && !c)  ==  g

   1. Put both operands in disjunctive normal form: a list of terms, each a
      set of literals (an atom and its polarity).
   2. Repeat until nothing changes: drop a term that contains another
      (absorption), and merge two terms that differ only in the polarity
      of one literal (x && c || x && !c == x).
   3. Rebuild the OR of ANDs.  Too large a form falls back to a plain OR,
      which is correct, only less simple.  */

#include "ir/te.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LITS 16
#define MAX_TERMS 32

typedef struct lit
{
  te_node *atom;
  bool neg;
} lit;

typedef struct term
{
  int n;
  lit l[MAX_LITS];
} term;

typedef struct dnf
{
  int n;
  term t[MAX_TERMS];
} dnf;

static bool
term_has (const term *t, lit x)
{
  for (int i = 0; i < t->n; i++)
    if (t->l[i].atom == x.atom && t->l[i].neg == x.neg)
      return true;
  return false;
}

static bool
term_add (term *t, lit x)
{
  if (term_has (t, x))
    return true;
  if (t->n == MAX_LITS)
    return false;
  t->l[t->n++] = x;
  return true;
}

/* Is every literal of A in B?  */
static bool
term_subset (const term *a, const term *b)
{
  for (int i = 0; i < a->n; i++)
    if (!term_has (b, a->l[i]))
      return false;
  return true;
}

static bool
to_dnf (te_node *x, dnf *out)
{
  out->n = 0;
  if (x->op == TE_CONST)
    {
      if (x->u.i)
        out->t[out->n++].n = 0;
      return true;
    }
  if (x->op == TE_OR)
    {
      dnf *b = malloc (sizeof *b);
      bool ok = b && to_dnf (x->args[0], out) && to_dnf (x->args[1], b)
                && out->n + b->n <= MAX_TERMS;
      if (ok)
        for (int i = 0; i < b->n; i++)
          out->t[out->n++] = b->t[i];
      free (b);
      return ok;
    }
  if (x->op == TE_AND)
    {
      dnf *a = malloc (sizeof *a), *b = malloc (sizeof *b);
      bool ok = a && b && to_dnf (x->args[0], a) && to_dnf (x->args[1], b)
                && a->n * b->n <= MAX_TERMS;
      for (int i = 0; ok && i < a->n; i++)
        for (int j = 0; ok && j < b->n; j++)
          {
            term t = a->t[i];
            for (int k = 0; ok && k < b->t[j].n; k++)
              ok = term_add (&t, b->t[j].l[k]);
            out->t[out->n++] = t;
          }
      free (a);
      free (b);
      return ok;
    }
  lit l = { x, false };
  if (x->op == TE_NOT)
    l = (lit){ x->args[0], true };
  out->t[0].n = 1;
  out->t[0].l[0] = l;
  out->n = 1;
  return true;
}

/* If A and B differ only in the polarity of one literal, make A their
   common part and return true.  */
static bool
merge (term *a, const term *b)
{
  if (a->n != b->n)
    return false;
  int diff = -1;
  for (int i = 0; i < a->n; i++)
    if (!term_has (b, a->l[i]))
      {
        lit flipped = { a->l[i].atom, !a->l[i].neg };
        if (diff >= 0 || !term_has (b, flipped))
          return false;
        diff = i;
      }
  if (diff < 0)
    return true; /* equal */
  a->l[diff] = a->l[--a->n];
  return true;
}

static void
simplify (dnf *d)
{
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (int i = 0; i < d->n && !changed; i++)
        for (int j = 0; j < d->n && !changed; j++)
          {
            if (i == j)
              continue;
            if (term_subset (&d->t[i], &d->t[j]) || merge (&d->t[i], &d->t[j]))
              {
                d->t[j] = d->t[--d->n];
                changed = true;
              }
          }
    }
}

static te_node *
rebuild_dnf (te_ctx *ctx, const dnf *d)
{
  te_node *r = te_bool (ctx, false);
  for (int i = 0; i < d->n; i++)
    {
      te_node *t = te_bool (ctx, true);
      for (int k = 0; k < d->t[i].n; k++)
        {
          te_node *l = d->t[i].l[k].atom;
          if (d->t[i].l[k].neg)
            l = te_unary (ctx, TE_NOT, l);
          t = te_binary (ctx, TE_AND, t, l);
        }
      r = te_binary (ctx, TE_OR, r, t);
    }
  return r;
}

te_node *
te_guard_or (te_ctx *ctx, te_node *a, te_node *b)
{
  te_node *plain = te_binary (ctx, TE_OR, a, b);
  dnf *d = malloc (sizeof *d);
  if (!d)
    return plain;
  te_node *r = plain;
  if (to_dnf (plain, d))
    {
      simplify (d);
      r = rebuild_dnf (ctx, d);
    }
  free (d);
  return r;
}
