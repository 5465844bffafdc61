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
      to) every contribution of which is A / S[w] (also negated, or a
      factor of a product), S[w] at the element w it adds to, or a load
      D2[w] of another candidate with the same S.  S is written by no
      stage from the first that touches D on.
   2. Every other read D[r] must be a factor of a product that has the
      factor S[r] too.  A candidate for which this fails is dropped, and
      so are those that relied on it; repeat.
   3. Then D holds S times its old value: its contributions lose the
      division, its reads the factor S (x * (a / x) is a, the rule "a
      division by a stored value multiplied by the same value cancels").
      Local arrays no one reads any more go, with their statements.

   Exact in real arithmetic.  Where D got no contribution it stays 0, as
   before; a read times S[r] had S[r] * 0 before and 0 now, so a zero or
   infinite S changes a NaN into 0 at most where the original divided by
   it.  Limits: one divisor per candidate; a read inside a guard stops
   it.  */

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
} cand;

typedef struct rescale
{
  te_program *p;
  te_ctx *ctx;
  cand c[MAX_CAND];
  int n;
} rescale;

static cand *
find (rescale *r, const te_tensor *t)
{
  for (int i = 0; i < r->n; i++)
    if (r->c[i].d == t && r->c[i].alive)
      return &r->c[i];
  return NULL;
}

/* Is N a load of S at canonical index W?  */
static bool
load_at (te_ctx *ctx, const te_node *n, const te_tensor *s, te_node *w)
{
  return n->op == TE_LOAD && n->u.tensor == s
         && te_canon_int (ctx, n->args[0]) == w;
}

/* The divisor tensor of contribution V to the element at W, or NULL.  */
static te_tensor *
divisor (te_ctx *ctx, te_node *v, te_node *w)
{
  switch (v->op)
    {
    case TE_NEG:
      return divisor (ctx, v->args[0], w);
    case TE_MUL:
      {
        te_tensor *t = divisor (ctx, v->args[0], w);
        return t ? t : divisor (ctx, v->args[1], w);
      }
    case TE_DIV:
      if (v->args[1]->op == TE_LOAD
          && te_canon_int (ctx, v->args[1]->args[0]) == w)
        return v->args[1]->u.tensor;
      return NULL;
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

static void
factors (te_node *n, te_node **f, int *nf, bool *ok)
{
  if (n->op == TE_MUL)
    {
      factors (n->args[0], f, nf, ok);
      factors (n->args[1], f, nf, ok);
    }
  else if (*nf < MAX_FACTORS)
    f[(*nf)++] = n;
  else
    *ok = false;
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
      int nf = 0;
      factors (n, f, &nf, ok);
      for (int i = 0; i < nf && *ok; i++)
        {
          cand *c = f[i]->op == TE_LOAD ? find (r, f[i]->u.tensor) : NULL;
          if (!c)
            continue;
          te_node *idx = te_canon_int (r->ctx, f[i]->args[0]);
          int k = -1;
          for (int j = 0; j < nf && k < 0; j++)
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

/* Is ST a contribution to its candidate that step 1 accepts?  */
static bool
contribution_ok (rescale *r, const cand *c, const te_stmt *st)
{
  te_node *w = te_canon_int (r->ctx, st->index);
  if (strip (r->ctx, st->value, c->s, w))
    return true;
  cand *c2 = st->value->op == TE_LOAD ? find (r, st->value->u.tensor) : NULL;
  return c2 && c2 != c && c2->s == c->s
         && te_canon_int (r->ctx, st->value->args[0]) == w;
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
                if (st->dst == c->d)
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
            if (c && contribution_ok (r, c, st))
              {
                te_node *a = strip (r->ctx, st->value, c->s,
                                    te_canon_int (r->ctx, st->index));
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
      te_tensor *s = NULL;
      int first = -1;
      bool ok = true;
      for (int st = 0; st < p->nstages && ok; st++)
        {
          const te_stage *g = &p->stages[st];
          if (g->call && te_call_passes (g, d, true))
            ok = false;
          if (te_stage_accesses (g, d) && first < 0)
            first = st;
          for (int k = 0; k < g->nstmts && ok; k++)
            {
              const te_stmt *x = &g->stmts[k];
              if (x->dst != d)
                continue;
              if (x->op != TE_ADD_TO)
                ok = false;
              else if (!s)
                s = divisor (p->ctx, x->value, te_canon_int (p->ctx, x->index));
            }
        }
      if (!ok || !s || s == d || first < 0)
        continue;
      for (int st = first; st < p->nstages && ok; st++)
        if (te_stage_writes (&p->stages[st], s)
            || (p->stages[st].call && te_call_passes (&p->stages[st], s, false)))
          ok = false;
      if (ok)
        r->c[r->n++] = (cand){ d, s, true };
    }
  /* The D2 of D[w] += D2[w]: a candidate when D is, without a divisor of
     its own.  */
  for (int round = 0; round < 4; round++)
    for (int i = 0; i < p->ntensors && r->n < MAX_CAND; i++)
      {
        te_tensor *d = p->tensors[i];
        if (d->kind != TE_TK_LOCAL || find (r, d))
          continue;
        cand *via = NULL;
        for (int st = 0; st < p->nstages; st++)
          for (int k = 0; k < p->stages[st].nstmts; k++)
            {
              const te_stmt *x = &p->stages[st].stmts[k];
              if (x->dst == d && x->op == TE_ADD_TO && x->value->op == TE_LOAD)
                via = find (r, x->value->u.tensor);
            }
        if (via)
          r->c[r->n++] = (cand){ d, via->s, true };
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
    return true;
  /* Step 3.  */
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        cand *c = find (&r, st->dst);
        te_node *w = te_canon_int (r.ctx, st->index);
        te_node *v = c ? strip (r.ctx, st->value, c->s, w) : NULL;
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
  te_program_drop_unread (p);
  return true;
}
