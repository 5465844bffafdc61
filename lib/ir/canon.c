/* canon.c -- a canonical form for integer index expressions.

   Before:  (1 + k) + i * m        k + (1 + i * m)        (i * m + k + 1)
   After:   one node for all three: the sum of coefficient-times-monomial
            terms in a fixed order.

   Hash-consing makes equal trees one node, but not equal values written
   differently; the lifter meets both shapes for one address (SCEV folds
   it one way, the source's arithmetic another), and the AD compares
   indices by pointer.  So every index is brought to this form.

   1. Expand the expression into a polynomial: terms of a 64-bit
      coefficient and a sorted list of atoms.  Atoms are counters,
      parameters, loads (gathers) and any node that is not +, -, * or a
      widening cast, itself canonicalized inside.
   2. Merge equal monomials, drop zero terms, sort the terms.
      A remainder by a constant whose dividend the sum holds, X - X % C
      (a tile loop's bound M - M % 8, (M - M % 8) * K in an address),
      is C * (X / C), C's identity (X / C) * C + X % C == X, so that
      the bound and the tiles' 8 * (M / 8) are one polynomial
      (contract_remainders).
   3. Rebuild.  Arithmetic wraps modulo 2^64, as the emitted code's.

   Limits: beyond MAX_TERMS terms or MAX_ATOMS atoms a term, the
   expression is left as it is (correct, only not canonical).  */

#include "ir/te.h"
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 32
#define MAX_ATOMS 6

typedef struct term
{
  int64_t coef;
  int natoms;
  te_node *atoms[MAX_ATOMS]; /* sorted by id */
} term;

typedef struct poly
{
  int n;
  term t[MAX_TERMS];
} poly;

static int
cmp_atoms (const term *a, const term *b)
{
  if (a->natoms != b->natoms)
    return a->natoms < b->natoms ? -1 : 1;
  for (int i = 0; i < a->natoms; i++)
    if (a->atoms[i] != b->atoms[i])
      return a->atoms[i]->id < b->atoms[i]->id ? -1 : 1;
  return 0;
}

static int
cmp_terms (const void *x, const void *y)
{
  return cmp_atoms (x, y);
}

/* Add term T to P, merging an equal monomial.  */
static bool
add_term (poly *p, const term *t)
{
  for (int i = 0; i < p->n; i++)
    if (cmp_atoms (&p->t[i], t) == 0)
      {
        p->t[i].coef = (int64_t) ((uint64_t) p->t[i].coef + (uint64_t) t->coef);
        return true;
      }
  if (p->n == MAX_TERMS)
    return false;
  p->t[p->n++] = *t;
  return true;
}

static bool
mul_terms (const term *a, const term *b, term *out)
{
  if (a->natoms + b->natoms > MAX_ATOMS)
    return false;
  out->coef = (int64_t) ((uint64_t) a->coef * (uint64_t) b->coef);
  out->natoms = 0;
  int i = 0, j = 0;
  while (i < a->natoms || j < b->natoms)
    {
      if (j == b->natoms
          || (i < a->natoms && a->atoms[i]->id <= b->atoms[j]->id))
        out->atoms[out->natoms++] = a->atoms[i++];
      else
        out->atoms[out->natoms++] = b->atoms[j++];
    }
  return true;
}

static te_node *canon (te_ctx *ctx, te_node *n);
static bool contract_remainders (te_ctx *ctx, poly *p);

/* Step 1: expand N into P.  */
static bool
expand (te_ctx *ctx, te_node *n, poly *p)
{
  p->n = 0;
  switch (n->op)
    {
    case TE_CONST:
      p->n = 1;
      p->t[0].coef = n->u.i;
      p->t[0].natoms = 0;
      return true;
    case TE_ADD:
    case TE_SUB:
      {
        poly *b = malloc (sizeof *b);
        bool ok = b && expand (ctx, n->args[0], p) && expand (ctx, n->args[1], b);
        for (int i = 0; ok && i < b->n; i++)
          {
            if (n->op == TE_SUB)
              b->t[i].coef = (int64_t) (0 - (uint64_t) b->t[i].coef);
            ok = add_term (p, &b->t[i]);
          }
        free (b);
        return ok;
      }
    case TE_NEG:
      if (!expand (ctx, n->args[0], p))
        return false;
      for (int i = 0; i < p->n; i++)
        p->t[i].coef = (int64_t) (0 - (uint64_t) p->t[i].coef);
      return true;
    case TE_MUL:
      {
        poly *a = malloc (sizeof *a), *b = malloc (sizeof *b);
        bool ok = a && b && expand (ctx, n->args[0], a)
                  && expand (ctx, n->args[1], b);
        for (int i = 0; ok && i < a->n; i++)
          for (int j = 0; ok && j < b->n; j++)
            {
              term t;
              ok = mul_terms (&a->t[i], &b->t[j], &t) && add_term (p, &t);
            }
        free (a);
        free (b);
        return ok;
      }
    case TE_CAST:
      if (n->type == TE_I64 && n->args[0]->type == TE_I64)
        return expand (ctx, n->args[0], p);
      break;
    case TE_DIV:
      /* (8 * H) / 8 is H: a division every coefficient of the dividend
         is a multiple of is exact, whatever the atoms' values.  */
      if (n->args[1]->op == TE_CONST && n->args[1]->u.i > 0)
        {
          poly *a = malloc (sizeof *a);
          bool ok = a && expand (ctx, n->args[0], a);
          int64_t c = n->args[1]->u.i;
          for (int i = 0; ok && i < a->n; i++)
            ok = a->t[i].coef % c == 0;
          if (ok)
            {
              for (int i = 0; i < a->n; i++)
                {
                  a->t[i].coef /= c;
                  add_term (p, &a->t[i]);
                }
              free (a);
              return true;
            }
          free (a);
        }
      break;
    default:
      break;
    }
  p->n = 1;
  p->t[0].coef = 1;
  p->t[0].natoms = 1;
  p->t[0].atoms[0] = n;
  return true;
}

/* Canonicalize the operands of an atom.  */
static te_node *
canon_atom (te_ctx *ctx, te_node *n)
{
  te_node *args[3] = { NULL, NULL, NULL };
  bool changed = false;
  if (n->op == TE_REDUCE)
    return n;
  for (int i = 0; i < 3; i++)
    if (n->args[i])
      {
        args[i] = n->args[i]->type == TE_I64 ? canon (ctx, n->args[i])
                                             : n->args[i];
        changed |= args[i] != n->args[i];
      }
  if (!changed)
    return n;
  switch (n->op)
    {
    case TE_LOAD:
      return te_load (ctx, n->u.tensor, args[0]);
    case TE_CAST:
      return te_cast (ctx, n->type, args[0]);
    case TE_SELECT:
      return te_select (ctx, args[0], args[1], args[2]);
    default:
      if (te_op_arity (n->op) == 1)
        return te_unary (ctx, n->op, args[0]);
      return te_binary (ctx, n->op, args[0], args[1]);
    }
}

/* Step 3: the sum of P's terms (of canonical atoms) in their order.  */
static te_node *
rebuild (te_ctx *ctx, poly *p)
{
  qsort (p->t, p->n, sizeof p->t[0], cmp_terms);
  te_node *r = te_int (ctx, 0);
  for (int i = 0; i < p->n; i++)
    {
      if (p->t[i].coef == 0)
        continue;
      te_node *m = te_int (ctx, p->t[i].coef);
      for (int k = 0; k < p->t[i].natoms; k++)
        m = te_mul (ctx, m, p->t[i].atoms[k]);
      r = te_add (ctx, r, m);
    }
  return r;
}

static te_node *
canon (te_ctx *ctx, te_node *n)
{
  if (n->type != TE_I64)
    return n;
  poly *p = malloc (sizeof *p);
  if (!p)
    return n;
  if (!expand (ctx, n, p))
    {
      free (p);
      return n;
    }
  /* Atoms first, then sort: canonicalizing an atom may change its id.  */
  poly *q = malloc (sizeof *q);
  if (!q)
    {
      free (p);
      return n;
    }
  q->n = 0;
  bool ok = true;
  for (int i = 0; ok && i < p->n; i++)
    {
      term t = p->t[i];
      if (t.coef == 0)
        continue;
      term one = { 1, 0, { NULL } };
      for (int k = 0; ok && k < t.natoms; k++)
        {
          term a = { 1, 1, { canon_atom (ctx, t.atoms[k]) } }, prod;
          ok = mul_terms (&one, &a, &prod);
          one = prod;
        }
      one.coef = t.coef;
      ok = ok && add_term (q, &one);
    }
  for (int guard = 0; ok && guard < 8 && contract_remainders (ctx, q);
       guard++)
    ;
  te_node *r = ok ? rebuild (ctx, q) : n;
  free (p);
  free (q);
  return r;
}

/* The term in P with the atoms of T, or NULL.  */
static term *
find_term (poly *p, const term *t)
{
  for (int i = 0; i < p->n; i++)
    if (cmp_atoms (&p->t[i], t) == 0)
      return &p->t[i];
  return NULL;
}

/* Step 2's contraction in P (canonical atoms): a term -A * R * (X % C),
   C a positive constant, whose A * R * X the sum holds term by term,
   becomes A * C * R * (X / C).  False if P is not changed.  */
static bool
contract_remainders (te_ctx *ctx, poly *p)
{
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->t[i].natoms; j++)
      {
        te_node *m = p->t[i].atoms[j];
        if (m->op != TE_MOD || m->type != TE_I64
            || m->args[1]->op != TE_CONST || m->args[1]->u.i <= 0
            || p->t[i].coef == 0)
          continue;
        int64_t c = m->args[1]->u.i;
        term rest = p->t[i];
        rest.coef = (int64_t) (0 - (uint64_t) rest.coef);
        rest.natoms = 0;
        for (int k = 0; k < p->t[i].natoms; k++)
          if (k != j)
            rest.atoms[rest.natoms++] = p->t[i].atoms[k];
        poly *x = malloc (sizeof *x);
        if (!x)
          return false;
        /* X's terms, each times A * R, all in P with that coefficient;
           X not a multiple of C (then X / C is no atom: canon folds
           it).  */
        bool ok = expand (ctx, m->args[0], x) && x->n > 0;
        bool multiple = true;
        term want[MAX_TERMS];
        for (int k = 0; ok && k < x->n; k++)
          {
            term *have;
            multiple &= x->t[k].coef % c == 0;
            ok = mul_terms (&rest, &x->t[k], &want[k])
                 && (have = find_term (p, &want[k])) != NULL
                 && have->coef == want[k].coef;
          }
        term q = { (int64_t) ((uint64_t) rest.coef * (uint64_t) c), 1,
                   { te_div (ctx, m->args[0], m->args[1]) } }, qr;
        ok = ok && !multiple && mul_terms (&rest, &q, &qr);
        if (ok)
          {
            qr.coef = q.coef;
            for (int k = 0; k < x->n; k++)
              find_term (p, &want[k])->coef = 0;
            p->t[i].coef = 0;
            ok = add_term (p, &qr);
          }
        free (x);
        if (ok)
          return true;
      }
  return false;
}

te_node *
te_canon_int (te_ctx *ctx, te_node *n)
{
  return canon (ctx, n);
}

/* Is every atom of monomial C among those of T (sorted by id, counted
   with their multiplicity)?  Then T's atoms less C's into OUT.  */
static bool
divides_atoms (const term *c, const term *t, term *out)
{
  out->natoms = 0;
  int j = 0;
  for (int i = 0; i < t->natoms; i++)
    if (j < c->natoms && c->atoms[j] == t->atoms[i])
      j++;
    else
      out->atoms[out->natoms++] = t->atoms[i];
  return j == c->natoms;
}

te_node *
te_canon_divide (te_ctx *ctx, te_node *d, te_node *c, te_node **rest)
{
  d = canon (ctx, d);
  c = canon (ctx, c);
  if (d == c)
    {
      if (rest)
        *rest = te_int (ctx, 0);
      return te_int (ctx, 1);
    }
  poly *pd = malloc (sizeof *pd), *pc = malloc (sizeof *pc);
  poly *q = malloc (sizeof *q), *r = malloc (sizeof *r);
  te_node *res = NULL;
  if (pd && pc && q && r && expand (ctx, d, pd) && expand (ctx, c, pc)
      && pc->n == 1 && pc->t[0].coef != 0)
    {
      q->n = r->n = 0;
      bool ok = true;
      for (int i = 0; ok && i < pd->n; i++)
        {
          term t;
          if (pd->t[i].coef % pc->t[0].coef == 0
              && divides_atoms (&pc->t[0], &pd->t[i], &t))
            {
              t.coef = pd->t[i].coef / pc->t[0].coef;
              ok = add_term (q, &t);
            }
          else
            ok = add_term (r, &pd->t[i]);
        }
      if (ok)
        {
          res = rebuild (ctx, q);
          if (rest)
            *rest = rebuild (ctx, r);
        }
    }
  free (pd);
  free (pc);
  free (q);
  free (r);
  return res;
}

/* te_canon_loads of N, memoized in M.  */
static te_node *
canon_loads_1 (te_ctx *ctx, te_node *n, te_memo *m)
{
  if (!n || n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return n;
  te_node *r = te_memo_get (m, n);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_REWRITE, 1);
  te_node *args[3] = { NULL, NULL, NULL };
  bool changed = false;
  for (int i = 0; i < 3; i++)
    {
      args[i] = canon_loads_1 (ctx, n->args[i], m);
      changed |= args[i] != n->args[i];
    }
  /* Inner loads first: a gather's index holds loads too.  */
  if (n->op == TE_LOAD)
    {
      te_node *c = te_canon_int (ctx, args[0]);
      r = c != n->args[0] ? te_load (ctx, n->u.tensor, c) : n;
    }
  else
    r = changed ? te_rebuild (ctx, n, args) : n;
  te_memo_put (m, n, r);
  return r;
}

te_node *
te_canon_loads (te_ctx *ctx, te_node *n)
{
  te_memo m = { 0 };
  te_node *r = canon_loads_1 (ctx, n, &m);
  te_memo_free (&m);
  return r;
}
