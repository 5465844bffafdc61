/* points.c -- an adjoint scattered to one element of each row is a select
   where it is read.

   Before:  for n:     e[Vp*n + t[n]] += -(d_l[n] / p[Vp*n + t[n]]);
            for n, j:  d[j] += d_p[j + Vp*n] + e[j + Vp*n];
   After:   for n, j:  d[j] += d_p[j + Vp*n]
                              + (j == t[n] ? -(d_l[n] / p[Vp*n + t[n]]) : 0);
   requiring, for every n, 0 <= t[n] < Vp.  The adjoint of a gather
   (-log (p[t[n]]) of a softmax row: the cross-entropy loss) is then no
   array of the whole tensor's size, zeroed and scattered into and read
   back, but a comparison in the row's own loop.

   1. A candidate is a local array E that one statement writes, adding to
      it, with no loops of its own (the scatter S over loops W), at an
      index BASE + IDX: BASE, the terms that load nothing, IDX those that
      do (the index array's entry).  No stage up to S's reads E and no
      call passes it.
   2. Every later read of E is in a statement's value, in a stage whose
      first loops have W's extents, outside a reduction; with W's
      counters renamed to those loops, it is E[BASE + R] where R uses
      none of them.  Over the stage's loops, these reads and BASE must
      step alike and stay in rows that iterations of W do not share
      (te_rows_apart), the window [LO, LO + SPAN) past each row's start.
   3. Then, as long as each scattered element lies in its own row's
      window, LO <= BASE0 + IDX < LO + SPAN (BASE0: BASE at counters 0),
      the read E[BASE + R] is the value S added where R == IDX and 0
      elsewhere: no other iteration's element can be in its row.  That
      condition reads the index array, so the gradient tests it on entry
      (te_program_require; a kernel whose index leaves the row reads
      another row, which the forward may do).  The reads become selects,
      S and E go.

   Exact: the select is the value the scatter left there.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

#define MAX_READS 16

/* The terms of canonical integer N that load something into *DATA, the
   others into *PLAIN, each a canonical sum (0 when empty).  */
static void
split_terms (te_ctx *ctx, te_node *n, te_node **plain, te_node **data)
{
  if (n->op == TE_ADD)
    {
      split_terms (ctx, n->args[0], plain, data);
      split_terms (ctx, n->args[1], plain, data);
      return;
    }
  te_node **to = te_reads (n, NULL) ? data : plain;
  *to = te_add (ctx, *to, n);
}

typedef struct scatter
{
  te_program *p;
  te_ctx *ctx;
  te_tensor *e;
  int s0;            /* the scatter's stage */
  te_stmt *st;       /* the scatter */
  const te_stage *w; /* its stage: loops W */
  te_node *base, *idx;
  te_node *lo, *span; /* the window of step 2, the same in every reader */
} scatter;

/* Step 1: is statement K of stage S0 the one writer of E and a scatter?  */
static bool
find_scatter (scatter *c)
{
  const te_program *p = c->p;
  c->st = NULL;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *sg = &p->stages[s];
      if (sg->call && (te_call_passes (sg, c->e, true)
                       || te_call_passes (sg, c->e, false)))
        return false;
      for (int k = 0; k < sg->nstmts; k++)
        {
          te_stmt *x = &sg->stmts[k];
          if (x->dst == c->e)
            {
              if (c->st)
                return false;
              c->st = x;
              c->s0 = s;
            }
        }
    }
  if (!c->st || c->st->op != TE_ADD_TO || c->st->ninner
      || te_reads (c->st->value, c->e)
      || (c->st->guard && te_reads (c->st->guard, c->e)))
    return false;
  c->w = &p->stages[c->s0];
  if (!c->w->nloops)
    return false;
  for (int s = 0; s <= c->s0; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      if (te_stmt_reads (&p->stages[s].stmts[k], c->e))
        return false;
  c->base = c->idx = te_int (c->ctx, 0);
  split_terms (c->ctx, c->st->index, &c->base, &c->idx);
  c->base = te_canon_int (c->ctx, c->base);
  c->idx = te_canon_int (c->ctx, c->idx);
  if (te_is_const (c->idx, 0))
    return false;
  /* The index reads only index arrays that nothing writes.  */
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if (te_reads (c->idx, t)
          && (te_type_is_float (t->type) || t->kind != TE_TK_PARAM
              || t->role != TE_ROLE_INPUT))
        return false;
    }
  return true;
}

/* Step 2 for stage S: its reads of E fit; *ANY whether it has one.  */
static bool
reader_fits (scatter *c, const te_stage *s, bool *any)
{
  int nw = c->w->nloops;
  *any = false;
  if (s->call)
    return true;
  te_node *index[MAX_READS];
  int nin[MAX_READS];
  const te_loop *in[MAX_READS];
  te_loop inner[MAX_READS][TE_MAX_LOOPS];
  int na = 0;
  /* The scatter's row start, at this stage's counters.  */
  te_node *base = te_rename_counters (c->ctx, c->base, nw, c->w->loops,
                                      s->loops);
  for (int k = 0; k < s->nstmts; k++)
    {
      const te_stmt *x = &s->stmts[k];
      if (!te_stmt_reads (x, c->e))
        continue;
      *any = true;
      if (te_reads (x->index, c->e) || (x->guard && te_reads (x->guard, c->e))
          || te_reads_in_reduction (x->value, c->e) || s->nloops < nw
          || s->nloops - nw + x->ninner > TE_MAX_LOOPS)
        return false;
      for (int l = 0; l < nw; l++)
        if (s->loops[l].extent != c->w->loops[l].extent)
          return false;
      te_node *loads[MAX_READS];
      int nl = te_loads_of (x->value, c->e, loads, MAX_READS);
      if (nl < 0 || na + nl > MAX_READS)
        return false;
      for (int i = 0; i < nl; i++)
        {
          te_node *r = te_canon_int (
              c->ctx, te_sub (c->ctx, loads[i]->args[0], base));
          for (int l = 0; l < nw; l++)
            if (te_uses_var (r, s->loops[l].var))
              return false;
          int m = 0;
          for (int l = nw; l < s->nloops; l++)
            inner[na][m++] = s->loops[l];
          for (int l = 0; l < x->ninner; l++)
            inner[na][m++] = x->inner[l];
          index[na] = loads[i]->args[0];
          nin[na] = m;
          in[na] = inner[na];
          na++;
        }
    }
  if (!*any)
    return true;
  te_node *lo, *span;
  if (!te_rows_apart (c->ctx, nw, s->loops, na, index, nin, in, s, &lo, &span))
    return false;
  /* The scatter's row start steps with the reads.  */
  for (int l = 0; l < nw; l++)
    if (te_coefficient (c->ctx, base, s->loops[l].var)
        != te_coefficient (c->ctx, index[0], s->loops[l].var))
      return false;
  if (!c->lo)
    {
      c->lo = lo;
      c->span = span;
    }
  return lo == c->lo && span == c->span;
}

/* Step 3: E[X] read in stage S as the select it is.  */
static te_node *
as_select (scatter *c, const te_stage *s, te_node *x)
{
  int nw = c->w->nloops;
  const te_loop *wl = c->w->loops, *sl = s->loops;
  te_node *base = te_rename_counters (c->ctx, c->base, nw, wl, sl);
  te_node *r = te_canon_int (c->ctx, te_sub (c->ctx, x, base));
  te_node *cond = te_binary (c->ctx, TE_EQ, r,
                             te_rename_counters (c->ctx, c->idx, nw, wl, sl));
  if (c->st->guard)
    cond = te_binary (c->ctx, TE_AND, cond,
                      te_rename_counters (c->ctx, c->st->guard, nw, wl, sl));
  return te_select (c->ctx, cond,
                    te_rename_counters (c->ctx, c->st->value, nw, wl, sl),
                    te_float (c->ctx, c->e->type, 0));
}

/* N with W's counters at 0.  */
static te_node *
at_zero (scatter *c, te_node *n)
{
  for (int l = 0; l < c->w->nloops; l++)
    n = te_replace (c->ctx, n, te_var (c->ctx, c->w->loops[l].var),
                    te_int (c->ctx, 0));
  return te_canon_int (c->ctx, n);
}

/* The index array IDX reads (the first, if several).  */
static const te_tensor *
index_array (const scatter *c)
{
  for (int i = 0; i < c->p->ntensors; i++)
    if (te_reads (c->idx, c->p->tensors[i]))
      return c->p->tensors[i];
  return NULL;
}

/* The requirement of step 3: the smallest margin of a scattered element
   to its window's ends, over W (0 when none is scattered).  */
static te_node *
margin (scatter *c)
{
  te_ctx *ctx = c->ctx;
  te_node *base0 = at_zero (c, c->base);
  te_node *at = te_canon_int (ctx, te_add (ctx, base0, c->idx));
  te_node *below = te_canon_int (ctx, te_sub (ctx, at, c->lo));
  te_node *above = te_canon_int (
      ctx, te_sub (ctx, te_sub (ctx, te_add (ctx, c->lo, c->span),
                                te_int (ctx, 1)),
                   at));
  te_node *m = te_binary (ctx, TE_MIN, below, above);
  if (c->st->guard)
    m = te_select (ctx, c->st->guard, m, te_int (ctx, 0));
  return te_reduce_node (ctx, TE_RED_MIN, c->w->nloops, c->w->loops,
                         te_int (ctx, 0), m);
}

static void
rewrite (scatter *c)
{
  te_program *p = c->p;
  for (int s = c->s0 + 1; s < p->nstages; s++)
    {
      te_stage *sg = &p->stages[s];
      for (int k = 0; k < sg->nstmts; k++)
        {
          te_stmt *x = &sg->stmts[k];
          te_node *loads[MAX_READS];
          int nl = te_loads_of (x->value, c->e, loads, MAX_READS);
          for (int i = 0; i < nl; i++)
            x->value = te_replace (c->ctx, x->value, loads[i],
                                   as_select (c, sg, loads[i]->args[0]));
        }
    }
  /* Each entry in [LO - BASE0, LO + SPAN - BASE0).  */
  te_node *base0 = at_zero (c, c->base);
  char from[256], to[256];
  snprintf (from, sizeof from, "%s",
            te_node_string (p, te_canon_int (c->ctx,
                                             te_sub (c->ctx, c->lo, base0))));
  snprintf (to, sizeof to, "%s",
            te_node_string (p, te_canon_int (
                                   c->ctx, te_sub (c->ctx,
                                                   te_add (c->ctx, c->lo,
                                                           c->span),
                                                   base0))));
  te_program_require (p, margin (c), c->st->loc,
                      "every entry of '%s' it reads lies in [%s, %s), in "
                      "its own row",
                      index_array (c)->name, from, to);
  te_program_note (p, "points: %s, one element per row, is a select where "
                   "it is read", c->e->name);
  /* E is read no more: it goes with the scatter.  */
  te_program_drop_unread (p);
}

bool
te_program_points (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int i = 0; i < p->ntensors; i++)
    {
      scatter c;
      memset (&c, 0, sizeof c);
      c.p = p;
      c.ctx = p->ctx;
      c.e = p->tensors[i];
      if (c.e->kind != TE_TK_LOCAL || !te_type_is_float (c.e->type)
          || !find_scatter (&c))
        continue;
      bool fits = true, read = false;
      for (int s = c.s0 + 1; fits && s < p->nstages; s++)
        {
          bool any;
          fits = reader_fits (&c, &p->stages[s], &any);
          read |= any;
        }
      if (!fits || !read)
        continue;
      rewrite (&c);
      i = -1; /* the tensors moved */
    }
  return true;
}
