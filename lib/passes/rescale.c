/* rescale.c -- adjoints kept multiplied by the value they are divided by.

   Before:  for i, j:  d_s[i] += -(y[i*m + j] * d_y[i*m + j] / s[i]);
            for i:     d1[i] += d_s[i];
            for i, j:  d_x[i*m + j] += d1[i] * (s[i] * y[i*m + j]);
   After:   for i, j:  d_s[i] += -(y[i*m + j] * d_y[i*m + j]);
            for i:     d1[i] += d_s[i];
            for i, j:  d_x[i*m + j] += d1[i] * y[i*m + j];
   Then s, and the maximum it was computed from, are read no more and
   their recomputation goes: a softmax's gradient reads y and d_y only.

   1. A candidate is an adjoint temporary D (a local array only added
      to) every contribution of which is A / S[u] (also negated, or a
      factor of a product), or a load D2[r] of another candidate with
      the same S.  S is written by no stage from the first that touches
      D on.  Each element e of D has one divisor element u(e), which
      D's first contribution, D[w0] += A / S[u0] over loops L0, tells:
      u(e) is e itself when u0 is w0 (the sum a reduction's adjoint is
      divided by), else u0 at the iteration of L0 that writes e, which
      must write its own element (te_rows_apart): an in-place softmax's
      d_y.v1[i*m + j] += d_y[i*m + j] / s[i] gives u (i*m + j) = i.  At
      another access D[x] over loops L, the divisor element is x when
      u is the identity, else u0 renamed to L where L and L0 have the
      same extents and x is w0 renamed (te_same_element); anything else
      drops D.  A contribution D[x] += A / S[v] must have v = u(x), and
      D[x] += D2[r] the same divisor element at x and at r.
   2. Every other read D[r] must be a factor of a product that has the
      factor S[u(r)] too.  A candidate for which this fails is dropped,
      and so are those that relied on it; repeat.
   3. Then D[e] holds S[u(e)] times its old value: its contributions
      lose the division, its reads the factor S (x * (a / x) is a, the
      rule "a division by a stored value multiplied by the same value
      cancels").  Local arrays no one reads any more go, with their
      statements.  They go also where nothing was rescaled: ad.c's
      reuse of stored outputs leaves recomputed statistics unread.

   Exact in real arithmetic.  Where D got no contribution it stays 0, as
   before; a read times S[r] had S[r] * 0 before and 0 now, so a zero or
   infinite S changes a NaN into 0 at most where the original divided by
   it.  Limits: one divisor per candidate; a read inside a guard stops
   it; where u is not the identity, every access of D must be at the
   element of an iteration of loops like L0's.

   4. Divisions out of the sums (after steps 1-3): a local adjoint D
      every contribution of which is divided by the same values E (a
      layer norm's d_v[i] += -(... / sqrt (v[i] / m + eps) / m) over
      i, j) at an element e that a counter names, each E using no other
      counter, reading nothing that a stage from D's first on writes
      and no adjoint, gets its contributions without those divisions
      and every read D[r] is divided by the E at r instead, where every
      read is in a statement with no more loops than any contribution
      and fewer than one (d1[i] += d_v[i] over i, the contributions over
      i, j, or also over i: a layer norm's d_rstd[i]), and in no
      reduction: one division per row instead of one per element.  D[e] holds E(e) times its old
      value; exact in real arithmetic, where E is 0 the sums were
      infinite or NaN and the quotient at the read is.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CAND 32
#define MAX_FACTORS 32

typedef struct cand
{
  te_tensor *d;
  te_tensor *s;
  bool alive;
  /* Step 1's map from an element to its divisor element: the identity,
     or U0 at the iteration of the loops L0 that writes W0.  */
  bool ident;
  int nl0;
  te_loop l0[2 * TE_MAX_LOOPS];
  te_node *w0, *u0;
} cand;

typedef struct rescale
{
  te_program *p;
  te_ctx *ctx;
  cand c[MAX_CAND];
  int n;
  /* The loops of the statement being looked at: its stage's, then its
     own.  */
  int nl;
  te_loop loops[2 * TE_MAX_LOOPS];
} rescale;

static cand *
find (rescale *r, const te_tensor *t)
{
  for (int i = 0; i < r->n; i++)
    if (r->c[i].d == t && r->c[i].alive)
      return &r->c[i];
  return NULL;
}

/* Make the loops of statement ST of stage G the current ones; false
   when there are too many.  */
static bool
at_stmt (rescale *r, const te_stage *g, const te_stmt *st)
{
  r->nl = 0;
  if (g->nloops + st->ninner > 2 * TE_MAX_LOOPS)
    return false;
  for (int k = 0; k < g->nloops; k++)
    r->loops[r->nl++] = g->loops[k];
  for (int k = 0; k < st->ninner; k++)
    r->loops[r->nl++] = st->inner[k];
  return true;
}

/* The canonical index of the divisor element of candidate C's element
   at INDEX, accessed in the current loops, or NULL when it cannot be
   told (step 1).  */
static te_node *
divisor_at (rescale *r, const cand *c, te_node *index)
{
  if (c->ident)
    return te_canon_int (r->ctx, index);
  te_node *u = te_same_element (r->ctx, c->nl0, c->l0, c->w0, c->u0, r->nl,
                                r->loops, index);
  return u ? te_canon_int (r->ctx, u) : NULL;
}

/* Set C's map from its contribution at INDEX, divided by S[U] in the
   current loops of stage G; false when the iterations may not each
   write their own element.  */
static bool
set_map (rescale *r, cand *c, const te_stage *g, te_node *index, te_node *u)
{
  te_node *w = te_canon_int (r->ctx, index);
  u = te_canon_int (r->ctx, u);
  c->ident = u == w;
  if (c->ident)
    return true;
  te_loop rev[2 * TE_MAX_LOOPS]; /* innermost first */
  for (int k = 0; k < r->nl; k++)
    rev[k] = r->loops[r->nl - 1 - k];
  int none = 0;
  const te_loop *in = NULL;
  te_node *lo, *span;
  if (!te_rows_apart (r->ctx, r->nl, rev, 1, &w, &none, &in, g, &lo, &span))
    return false;
  c->nl0 = r->nl;
  memcpy (c->l0, r->loops, r->nl * sizeof *c->l0);
  c->w0 = w;
  c->u0 = u;
  return true;
}

/* Is N a load of S at canonical index W?  */
static bool
load_at (te_ctx *ctx, const te_node *n, const te_tensor *s, te_node *w)
{
  return n->op == TE_LOAD && n->u.tensor == s
         && te_canon_int (ctx, n->args[0]) == w;
}

/* The load a contribution V is divided by, or NULL.  */
static te_node *
divisor (te_node *v)
{
  switch (v->op)
    {
    case TE_NEG:
      return divisor (v->args[0]);
    case TE_MUL:
      {
        te_node *t = divisor (v->args[0]);
        return t ? t : divisor (v->args[1]);
      }
    case TE_DIV:
      return v->args[1]->op == TE_LOAD ? v->args[1] : NULL;
    default:
      return NULL;
    }
}

/* V without its division by S[W], or NULL.  */
static te_node *
strip (te_ctx *ctx, te_node *v, const te_tensor *s, te_node *w)
{
  switch (v->op)
    {
    case TE_NEG:
      {
        te_node *a = strip (ctx, v->args[0], s, w);
        return a ? te_unary (ctx, TE_NEG, a) : NULL;
      }
    case TE_MUL:
      {
        te_node *a = strip (ctx, v->args[0], s, w);
        if (a)
          return te_mul (ctx, a, v->args[1]);
        te_node *b = strip (ctx, v->args[1], s, w);
        return b ? te_mul (ctx, v->args[0], b) : NULL;
      }
    case TE_DIV:
      return load_at (ctx, v->args[1], s, w) ? v->args[0] : NULL;
    default:
      return NULL;
    }
}

/* N with every read of a live candidate's D taken with a factor S of
   its product away; *OK false where a read has no such factor.  */
static te_node *
cancel_in (rescale *r, te_node *n, bool *ok, te_memo *m)
{
  if (!*ok)
    return n;
  te_node *done = te_memo_get (m, n);
  if (done)
    return done;
  te_node *res = n;
  if (n->op == TE_MUL)
    {
      te_node *f[MAX_FACTORS];
      bool used[MAX_FACTORS] = { false };
      int nf = te_factors (n, f, MAX_FACTORS);
      if (nf < 0)
        {
          nf = 0;
          *ok = false;
        }
      for (int i = 0; i < nf && *ok; i++)
        {
          cand *c = f[i]->op == TE_LOAD ? find (r, f[i]->u.tensor) : NULL;
          if (!c)
            continue;
          te_node *idx = divisor_at (r, c, f[i]->args[0]);
          int k = -1;
          for (int j = 0; j < nf && k < 0 && idx; j++)
            if (!used[j] && j != i && load_at (r->ctx, f[j], c->s, idx))
              k = j;
          if (k < 0)
            *ok = false;
          else
            used[i] = used[k] = true;
        }
      res = NULL;
      for (int i = 0; i < nf && *ok; i++)
        {
          te_node *x = f[i];
          bool is_s = used[i] && !(x->op == TE_LOAD && find (r, x->u.tensor));
          if (is_s)
            continue;
          if (!used[i])
            x = cancel_in (r, x, ok, m);
          res = res ? te_mul (r->ctx, res, x) : x;
        }
      if (!res)
        res = te_float (r->ctx, n->type, 1);
    }
  else if (n->op == TE_LOAD && find (r, n->u.tensor))
    *ok = false;
  else if (n->op != TE_CONST && n->op != TE_PARAM && n->op != TE_VAR)
    {
      te_node *args[3] = { NULL, NULL, NULL };
      bool changed = false;
      for (int i = 0; i < te_op_arity (n->op); i++)
        {
          args[i] = cancel_in (r, n->args[i], ok, m);
          changed |= args[i] != n->args[i];
        }
      if (changed && *ok)
        res = te_rebuild (r->ctx, n, args);
    }
  te_memo_put (m, n, res);
  return res;
}

/* Is ST, in the current loops, a contribution to its candidate that
   step 1 accepts?  */
static bool
contribution_ok (rescale *r, const cand *c, const te_stmt *st)
{
  te_node *u = divisor_at (r, c, st->index);
  if (!u)
    return false;
  if (strip (r->ctx, st->value, c->s, u))
    return true;
  cand *c2 = st->value->op == TE_LOAD ? find (r, st->value->u.tensor) : NULL;
  return c2 && c2 != c && c2->s == c->s
         && divisor_at (r, c2, st->value->args[0]) == u;
}

/* Steps 1 and 2: drop candidates until every one holds.  */
static bool
settle (rescale *r)
{
  te_program *p = r->p;
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (int i = 0; i < r->n; i++)
        {
          cand *c = &r->c[i];
          if (!c->alive)
            continue;
          bool ok = true;
          for (int s = 0; s < p->nstages && ok; s++)
            for (int k = 0; k < p->stages[s].nstmts && ok; k++)
              {
                const te_stmt *st = &p->stages[s].stmts[k];
                ok = at_stmt (r, &p->stages[s], st);
                if (ok && st->dst == c->d)
                  ok = contribution_ok (r, c, st);
                if (st->guard && te_reads (st->guard, c->d))
                  ok = false;
              }
          if (!ok)
            {
              c->alive = false;
              changed = true;
            }
        }
      /* Reads elsewhere.  */
      for (int s = 0; s < p->nstages && !changed; s++)
        for (int k = 0; k < p->stages[s].nstmts && !changed; k++)
          {
            const te_stmt *st = &p->stages[s].stmts[k];
            cand *c = find (r, st->dst);
            at_stmt (r, &p->stages[s], st); /* settled above */
            if (c && contribution_ok (r, c, st))
              {
                te_node *a = strip (r->ctx, st->value, c->s,
                                    divisor_at (r, c, st->index));
                if (!a)
                  continue; /* D[w] += D2[w] */
                for (int i = 0; i < r->n; i++)
                  if (r->c[i].alive && te_reads (a, r->c[i].d))
                    {
                      r->c[i].alive = false;
                      changed = true;
                    }
                continue;
              }
            bool ok = true;
            te_memo m = { 0 };
            cancel_in (r, st->value, &ok, &m);
            te_memo_free (&m);
            if (ok)
              continue;
            /* Drop the candidates this value reads.  */
            for (int i = 0; i < r->n; i++)
              if (r->c[i].alive && te_reads (st->value, r->c[i].d))
                {
                  r->c[i].alive = false;
                  changed = true;
                }
          }
    }
  for (int i = 0; i < r->n; i++)
    if (r->c[i].alive)
      return true;
  return false;
}

/* Is S written by no stage from the first that accesses D on?  */
static bool
stable (const te_program *p, const te_tensor *d, const te_tensor *s)
{
  int first = -1;
  for (int st = 0; st < p->nstages && first < 0; st++)
    if (te_stage_accesses (&p->stages[st], d))
      first = st;
  if (first < 0)
    return false;
  for (int st = first; st < p->nstages; st++)
    if (te_stage_writes (&p->stages[st], s)
        || (p->stages[st].call && te_call_passes (&p->stages[st], s, false)))
      return false;
  return true;
}

/* Step 1's candidates of P.  */
static void
candidates (rescale *r)
{
  te_program *p = r->p;
  for (int i = 0; i < p->ntensors && r->n < MAX_CAND; i++)
    {
      te_tensor *d = p->tensors[i];
      if (d->kind != TE_TK_LOCAL || !te_type_is_float (d->type))
        continue;
      cand c = { d, NULL, true, true, 0, { { 0 } }, NULL, NULL };
      bool ok = true;
      for (int st = 0; st < p->nstages && ok; st++)
        {
          const te_stage *g = &p->stages[st];
          if (g->call && te_call_passes (g, d, true))
            ok = false;
          for (int k = 0; k < g->nstmts && ok; k++)
            {
              const te_stmt *x = &g->stmts[k];
              if (x->dst != d)
                continue;
              te_node *q = x->op == TE_ADD_TO ? divisor (x->value) : NULL;
              if (x->op != TE_ADD_TO)
                ok = false;
              else if (!c.s && q)
                {
                  c.s = q->u.tensor;
                  ok = at_stmt (r, g, x)
                       && set_map (r, &c, g, x->index, q->args[0]);
                }
            }
        }
      if (ok && c.s && c.s != d && stable (p, d, c.s))
        r->c[r->n++] = c;
    }
  /* The D2 of D[x] += D2[r]: a candidate when D is, without a divisor of
     its own; its map comes from that statement.  */
  for (int round = 0; round < 4; round++)
    for (int i = 0; i < p->ntensors && r->n < MAX_CAND; i++)
      {
        te_tensor *d = p->tensors[i];
        if (d->kind != TE_TK_LOCAL || find (r, d))
          continue;
        cand c = { d, NULL, true, true, 0, { { 0 } }, NULL, NULL };
        for (int st = 0; st < p->nstages && !c.s; st++)
          for (int k = 0; k < p->stages[st].nstmts && !c.s; k++)
            {
              const te_stage *g = &p->stages[st];
              const te_stmt *x = &g->stmts[k];
              cand *via = x->dst == d && x->op == TE_ADD_TO
                                  && x->value->op == TE_LOAD
                              ? find (r, x->value->u.tensor)
                              : NULL;
              te_node *u = via && at_stmt (r, g, x)
                               ? divisor_at (r, via, x->value->args[0])
                               : NULL;
              if (u && set_map (r, &c, g, x->index, u))
                c.s = via->s;
            }
        if (c.s && c.s != d && stable (p, d, c.s))
          r->c[r->n++] = c;
      }
}

/* ---- step 4 ------------------------------------------------------------ */

#define MAX_DIVS 8

typedef struct hoist
{
  te_tensor *d;
  int var;        /* the counter naming the element, or -1: one element */
  int ndiv;
  te_node *div[MAX_DIVS]; /* in counter VAR */
  int minloops;   /* the fewest loops of a contribution */
  int maxloops;   /* the most */
} hoist;

/* The counter that canonical index INDEX is, -1 for a constant; false
   for anything else.  */
static bool
elem_var (te_ctx *ctx, te_node *index, int *var)
{
  index = te_canon_int (ctx, index);
  if (index->op == TE_VAR)
    *var = index->u.index;
  else if (index->op == TE_CONST)
    *var = -1;
  else
    return false;
  return true;
}

/* N with counter FROM renamed TO (-1: none).  */
static te_node *
rename_var (te_ctx *ctx, te_node *n, int from, int to)
{
  if (from < 0 || to < 0 || from == to)
    return n;
  te_loop a = { from, NULL }, b = { to, NULL };
  return te_rename_counters (ctx, n, 1, &a, &b);
}

/* Does a statement of P add to (+=) T?  */
static bool
added_to (const te_program *p, const te_tensor *t)
{
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      if (p->stages[s].stmts[k].dst == t && p->stages[s].stmts[k].op == TE_ADD_TO)
        return true;
  return false;
}

typedef struct reads_ok
{
  const te_program *p;
  const te_tensor *d;
  bool ok;
} reads_ok;

static void
e_reads_fn (te_node *n, void *data)
{
  reads_ok *q = data;
  if (n->op != TE_LOAD)
    return;
  const te_tensor *t = n->u.tensor;
  if (added_to (q->p, t) || !stable (q->p, q->d, t))
    q->ok = false;
}

/* May E divide the contributions of D at counter VAR of the current
   loops: a value at the element (step 4)?  */
static bool
divisor_ok (rescale *r, const te_tensor *d, te_node *e, int var)
{
  for (int k = 0; k < r->nl; k++)
    if (r->loops[k].var != var && te_uses_var_free (e, r->loops[k].var))
      return false;
  reads_ok q = { r->p, d, true };
  te_walk (e, e_reads_fn, &q);
  return q.ok;
}

/* The divisions of the contribution V (through negations and the
   dividends of divisions) that divisor_ok accepts, in counter VAR, put
   in counter REF, into DIV.  */
static void
trailing (rescale *r, const te_tensor *d, te_node *v, int var, int ref,
          te_node **div, int *n)
{
  if (v->op == TE_NEG)
    trailing (r, d, v->args[0], var, ref, div, n);
  else if (v->op == TE_DIV)
    {
      if (*n < MAX_DIVS && divisor_ok (r, d, v->args[1], var))
        div[(*n)++] = rename_var (r->ctx, v->args[1], var, ref);
      trailing (r, d, v->args[0], var, ref, div, n);
    }
}

/* V without one division by each of the N divisors DIV (in the
   occurrence's counter); USED marks those found.  */
static te_node *
strip_divs (te_ctx *ctx, te_node *v, te_node **div, int n, bool *used)
{
  if (v->op == TE_NEG)
    return te_unary (ctx, TE_NEG, strip_divs (ctx, v->args[0], div, n, used));
  if (v->op != TE_DIV)
    return v;
  te_node *a = strip_divs (ctx, v->args[0], div, n, used);
  for (int i = 0; i < n; i++)
    if (!used[i] && div[i] == v->args[1])
      {
        used[i] = true;
        return a;
      }
  return te_binary (ctx, TE_DIV, a, v->args[1]);
}

/* Step 4's set for D: the divisors every contribution has; false when
   D is no candidate.  */
static bool
hoist_set (rescale *r, hoist *h)
{
  te_program *p = r->p;
  bool first = true;
  h->ndiv = 0;
  h->minloops = 2 * TE_MAX_LOOPS + 1;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *g = &p->stages[s];
      if (g->call && te_call_passes (g, h->d, true))
        return false;
      for (int k = 0; k < g->nstmts; k++)
        {
          const te_stmt *x = &g->stmts[k];
          if (x->dst != h->d)
            continue;
          int var;
          if (x->op != TE_ADD_TO || !at_stmt (r, g, x)
              || !elem_var (r->ctx, x->index, &var))
            return false;
          if (first)
            h->var = var;
          else if ((var < 0) != (h->var < 0))
            return false;
          te_node *div[MAX_DIVS];
          int n = 0;
          trailing (r, h->d, x->value, var, h->var, div, &n);
          if (first)
            {
              memcpy (h->div, div, n * sizeof *div);
              h->ndiv = n;
            }
          else
            {
              /* The multiset intersection.  */
              bool used[MAX_DIVS] = { false };
              int out = 0;
              for (int i = 0; i < h->ndiv; i++)
                for (int j = 0; j < n; j++)
                  if (!used[j] && div[j] == h->div[i])
                    {
                      used[j] = true;
                      h->div[out++] = h->div[i];
                      break;
                    }
              h->ndiv = out;
            }
          first = false;
          if (r->nl < h->minloops)
            h->minloops = r->nl;
          if (r->nl > h->maxloops)
            h->maxloops = r->nl;
        }
    }
  return !first && h->ndiv > 0;
}

typedef struct read_walk
{
  rescale *r;
  hoist *h;
  int depth; /* reductions around */
  bool ok;
  bool apply;
  te_memo memo;
} read_walk;

/* N with every load of H's D divided by its divisors at the load
   (APPLY), or only checked (reads in no reduction, at an element a
   counter names).  */
static te_node *
read_rw (read_walk *q, te_node *n)
{
  if (!n || !q->ok)
    return n;
  if (n->op == TE_LOAD && n->u.tensor == q->h->d)
    {
      int var;
      if (q->depth || !elem_var (q->r->ctx, n->args[0], &var)
          || (var < 0) != (q->h->var < 0))
        {
          q->ok = false;
          return n;
        }
      te_node *x = n;
      for (int i = q->h->ndiv - 1; i >= 0 && q->apply; i--)
        x = te_binary (q->r->ctx, TE_DIV, x,
                       rename_var (q->r->ctx, q->h->div[i], q->h->var, var));
      return x;
    }
  if (n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return n;
  te_node *done = q->depth ? NULL : te_memo_get (&q->memo, n);
  if (done)
    return done;
  te_node *args[3] = { NULL, NULL, NULL };
  bool changed = false;
  q->depth += n->op == TE_REDUCE;
  for (int i = 0; i < te_op_arity (n->op); i++)
    {
      args[i] = read_rw (q, n->args[i]);
      changed |= args[i] != n->args[i];
    }
  q->depth -= n->op == TE_REDUCE;
  te_node *res = changed ? te_rebuild (q->r->ctx, n, args) : n;
  if (!q->depth)
    te_memo_put (&q->memo, n, res);
  return res;
}

/* Are the reads of H's D those step 4 accepts?  */
static bool
hoist_reads_ok (rescale *r, hoist *h)
{
  te_program *p = r->p;
  if (te_sizes_read (p, h->d))
    return false;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *g = &p->stages[s];
      for (int k = 0; k < g->nloops; k++)
        if (te_reads (g->loops[k].extent, h->d))
          return false;
      for (int k = 0; k < g->nstmts; k++)
        {
          const te_stmt *x = &g->stmts[k];
          if (te_reads (x->index, h->d)
              || (x->guard && te_reads (x->guard, h->d)))
            return false;
          for (int i = 0; i < x->ninner; i++)
            if (te_reads (x->inner[i].extent, h->d))
              return false;
          if (!te_reads (x->value, h->d))
            continue;
          if (g->nloops + x->ninner > h->minloops
              || g->nloops + x->ninner >= h->maxloops)
            return false;
          read_walk q = { r, h, 0, true, false, { 0 } };
          read_rw (&q, x->value);
          te_memo_free (&q.memo);
          if (!q.ok)
            return false;
        }
    }
  return true;
}

/* Step 4 over P.  */
static void
hoist_divisions (rescale *r)
{
  te_program *p = r->p;
  for (int i = 0; i < p->ntensors; i++)
    {
      hoist h;
      memset (&h, 0, sizeof h);
      h.d = p->tensors[i];
      if (h.d->kind != TE_TK_LOCAL || !te_type_is_float (h.d->type)
          || !hoist_set (r, &h) || !hoist_reads_ok (r, &h))
        continue;
      for (int s = 0; s < p->nstages; s++)
        {
          te_stage *g = &p->stages[s];
          for (int k = 0; k < g->nstmts; k++)
            {
              te_stmt *x = &g->stmts[k];
              if (x->dst == h.d)
                {
                  int var = -1;
                  elem_var (r->ctx, x->index, &var);
                  te_node *div[MAX_DIVS];
                  bool used[MAX_DIVS] = { false };
                  for (int j = 0; j < h.ndiv; j++)
                    div[j] = rename_var (r->ctx, h.div[j], h.var, var);
                  x->value = strip_divs (r->ctx, x->value, div, h.ndiv, used);
                }
              else if (te_reads (x->value, h.d))
                {
                  read_walk q = { r, &h, 0, true, true, { 0 } };
                  x->value = read_rw (&q, x->value);
                  te_memo_free (&q.memo);
                }
            }
        }
      te_program_note (p, "rescale: %s's divisions moved to its reads",
                       h.d->name);
    }
}

bool
te_program_rescale (te_program *p, te_diag *diag)
{
  (void) diag;
  rescale r;
  memset (&r, 0, sizeof r);
  r.p = p;
  r.ctx = p->ctx;
  candidates (&r);
  if (!r.n || !settle (&r))
    {
      hoist_divisions (&r);
      te_program_drop_unread (p);
      return true;
    }
  /* Step 3.  */
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        cand *c = find (&r, st->dst);
        at_stmt (&r, &p->stages[s], st);
        te_node *u = c ? divisor_at (&r, c, st->index) : NULL;
        te_node *v = u ? strip (r.ctx, st->value, c->s, u) : NULL;
        if (v)
          st->value = v;
        else if (!c)
          {
            bool ok = true;
            te_memo m = { 0 };
            st->value = cancel_in (&r, st->value, &ok, &m);
            te_memo_free (&m);
          }
      }
  for (int i = 0; i < r.n; i++)
    if (r.c[i].alive)
      te_program_note (p, "rescale: %s holds %s times its adjoint",
                       r.c[i].d->name, r.c[i].s->name);
  hoist_divisions (&r);
  te_program_drop_unread (p);
  return true;
}
