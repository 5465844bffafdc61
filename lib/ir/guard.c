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
      which is correct, only less simple.

   te_guards_exclusive puts A && B in that form and looks in every term
   for a literal and its negation, comparisons spelled one way
   (normal_lit).

   Second, te_optional_unguarded: whether every load of a pointer the
   kernel tests against NULL runs only where its test holds (below).  */

#include "ir/te.h"
#include "ir/index.h"

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

/* X in fewer spellings: a != b is !(a == b), the operands of == in the
   order of their ids; for integers a < b is !(b <= a), a > b is
   !(a <= b) and a >= b is b <= a (a floating order stays: NaN).  */
static lit
normal_lit (te_ctx *ctx, lit x)
{
  te_node *a = x.atom;
  switch (a->op)
    {
    case TE_NE:
    case TE_EQ:
      {
        te_node *l = a->args[0], *r = a->args[1];
        if (l->id > r->id)
          {
            te_node *t = l;
            l = r;
            r = t;
          }
        return (lit){ te_binary (ctx, TE_EQ, l, r), x.neg ^ (a->op == TE_NE) };
      }
    case TE_LT:
    case TE_GT:
    case TE_GE:
      if (te_type_is_float (a->args[0]->type))
        return x;
      if (a->op == TE_LT)
        return (lit){ te_binary (ctx, TE_LE, a->args[1], a->args[0]), !x.neg };
      if (a->op == TE_GT)
        return (lit){ te_binary (ctx, TE_LE, a->args[0], a->args[1]), !x.neg };
      return (lit){ te_binary (ctx, TE_LE, a->args[1], a->args[0]), x.neg };
    default:
      return x;
    }
}

bool
te_guards_exclusive (te_ctx *ctx, te_node *a, te_node *b)
{
  dnf *d = malloc (sizeof *d);
  bool ok = d && to_dnf (te_binary (ctx, TE_AND, a, b), d);
  for (int i = 0; ok && i < d->n; i++)
    {
      term *t = &d->t[i];
      for (int k = 0; k < t->n; k++)
        t->l[k] = normal_lit (ctx, t->l[k]);
      bool contradicts = false;
      for (int k = 0; k < t->n && !contradicts; k++)
        for (int j = k + 1; j < t->n && !contradicts; j++)
          contradicts = t->l[k].atom == t->l[j].atom
                        && t->l[k].neg != t->l[j].neg;
      ok = contradicts;
    }
  free (d);
  return ok;
}

/* ---- loads of optional tensors behind their tests -----------------------

   te_optional_unguarded walks each statement with the set of tests
   known to hold (a bit per pointer parameter below 64; a test of a later
   one is never known, so its loads are refused): nothing for a guard
   and the loops' extents, the guard's facts for the value and the index.
   A select adds its condition's facts to its first arm and its negation's
   to its second; && and || add their left operand's (or its negation's)
   to their right one, which they evaluate only then (the interpreter and
   the back ends evaluate && and || left to right).  A node is visited
   once per set of known tests.  */

/* The tests that hold where C is POSITIVE.  */
static uint64_t
facts (const te_node *c, bool positive)
{
  if (!c)
    return 0;
  bool neg = false;
  c = te_bool_of (c->ctx, (te_node *) c, &neg);
  if (neg)
    positive = !positive;
  if (te_is_nonnull (c))
    return positive && c->u.index < 64 ? (uint64_t) 1 << c->u.index : 0;
  switch (c->op)
    {
    case TE_NOT:
      return facts (c->args[0], !positive);
    case TE_AND:
      return positive ? facts (c->args[0], true) | facts (c->args[1], true)
                      : facts (c->args[0], false) & facts (c->args[1], false);
    case TE_OR:
      return positive ? facts (c->args[0], true) & facts (c->args[1], true)
                      : facts (c->args[0], false) | facts (c->args[1], false);
    default:
      return 0;
    }
}

typedef struct known_memo
{
  uint64_t known;
  te_memo m;
} known_memo;

typedef struct unguarded
{
  known_memo *memos;
  int nmemos;
  const te_tensor *bad;
} unguarded;

static te_memo *
memo_for (unguarded *u, uint64_t known)
{
  for (int i = 0; i < u->nmemos; i++)
    if (u->memos[i].known == known)
      return &u->memos[i].m;
  known_memo *m = realloc (u->memos, (u->nmemos + 1) * sizeof *m);
  if (!m)
    return NULL;
  u->memos = m;
  memset (&m[u->nmemos], 0, sizeof *m);
  m[u->nmemos].known = known;
  return &m[u->nmemos++].m;
}

static bool
optional_read_ok (const te_tensor *t, uint64_t known)
{
  return !t->optional
         || (t->param >= 0 && t->param < 64
             && (known >> t->param & 1));
}

static void
visit (unguarded *u, const te_node *n, uint64_t known)
{
  if (!n || u->bad)
    return;
  if (n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return;
  te_memo *m = memo_for (u, known);
  if (m)
    {
      if (te_memo_get (m, n))
        return;
      te_memo_put (m, n, TE_MEMO_TRUE);
    }
  te_walk_count (n->ctx, TE_WALK_QUERY, 1);
  switch (n->op)
    {
    case TE_LOAD:
      if (!optional_read_ok (n->u.tensor, known))
        u->bad = n->u.tensor;
      visit (u, n->args[0], known);
      return;
    case TE_SELECT:
      visit (u, n->args[0], known);
      visit (u, n->args[1], known | facts (n->args[0], true));
      visit (u, n->args[2], known | facts (n->args[0], false));
      return;
    case TE_AND:
    case TE_OR:
      visit (u, n->args[0], known);
      visit (u, n->args[1],
             known | facts (n->args[0], n->op == TE_AND));
      return;
    case TE_REDUCE:
      for (int i = 0; i < n->u.red.nloops; i++)
        visit (u, n->u.red.loops[i].extent, known);
      break;
    default:
      break;
    }
  for (int k = 0; k < te_op_arity (n->op); k++)
    visit (u, n->args[k], known);
}

const te_tensor *
te_optional_unguarded (const te_program *p, te_loc *loc)
{
  bool any = false;
  for (int i = 0; i < p->ntensors; i++)
    any |= p->tensors[i]->optional;
  if (!any)
    return NULL;
  unguarded u = { NULL, 0, NULL };
  for (int s = 0; s < p->nstages && !u.bad; s++)
    {
      const te_stage *st = &p->stages[s];
      *loc = st->loc;
      for (int i = 0; i < st->nloops; i++)
        visit (&u, st->loops[i].extent, 0);
      if (st->call)
        for (int i = 0; i < st->call->nargs && !u.bad; i++)
          {
            const te_call_arg *a = &st->call->args[i];
            if (a->tensor && a->tensor->optional)
              u.bad = a->tensor;
            visit (&u, a->value, 0);
            visit (&u, a->offset, 0);
          }
      for (int k = 0; k < st->nstmts && !u.bad; k++)
        {
          const te_stmt *x = &st->stmts[k];
          *loc = x->loc;
          for (int i = 0; i < x->ninner; i++)
            visit (&u, x->inner[i].extent, 0);
          visit (&u, x->guard, 0);
          uint64_t known = facts (x->guard, true);
          visit (&u, x->value, known);
          visit (&u, x->index, known);
        }
    }
  for (int i = 0; i < u.nmemos; i++)
    te_memo_free (&u.memos[i].m);
  free (u.memos);
  return u.bad;
}
