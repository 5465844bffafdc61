/* reduce.c -- recognizing reductions.

   Before:  stage 0: for i < n:          y[i] = 0;
            stage 1: for i < n, k < K:   y[i] = y[i] + x[i*K + k];
   After:   stage 0: for i < n:          y[i] = sum (k < K; 0; x[i*K + k]);

   The lifter finds reductions through scalar accumulators (a PHI in a
   loop header); this pass finds those written through memory, an element
   updated in place across iterations of loops its index does not use.

   1. A statement T[w] = T[w] op e, alone in its stage, with e not reading
      T, and loops whose counters w does not use, becomes
      T[w] = reduce_op (those loops; T[w]; e) over the other loops, in
      their order.  The per-element order of the terms is kept, so the
      result is the same to the last bit.  A guard goes into the terms
      (a term that does not run contributes the operation's identity).
   2. When the stage before it writes T[w] (the same element at the same
      iteration, after renaming its counters), or an earlier one with
      only stages between that leave T and what that write reads alone
      (init_stage), that value becomes the init and its statement goes:
      T is then an output, not in-out.

   Loops the stage shares with another stage of its source nest that
   accesses T (scratch reset in every iteration of an outer loop:
   for (i) { acc[r] = 0; for (k) acc[r] += ...; c[i][r] = acc[r]; })
   stay loops of the stage: the update restarts in each of their
   iterations (expand.c then gives T a copy per iteration).

   Limits: only a stage holding nothing but the update is rewritten (an
   update beside other statements that do not touch T is first moved to
   a stage of its own, split_update), and the init is looked for in the
   last stage before that accesses T.  A loop that other
   stages of the nest share, writing what the terms read or touching T,
   is no reduction (carried_with_others).  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <math.h>
#include <string.h>

te_node *
te_red_identity (te_ctx *ctx, te_red_kind kind, te_type type)
{
  if (!te_type_is_float (type))
    switch (kind)
      {
      case TE_RED_SUM: /* a count */
        return te_cast (ctx, type, te_int (ctx, 0));
      case TE_RED_PROD:
        return te_cast (ctx, type, te_int (ctx, 1));
      case TE_RED_MAX:
        return te_cast (ctx, type, te_int (ctx, INT64_MIN));
      case TE_RED_MIN:
        return te_cast (ctx, type, te_int (ctx, INT64_MAX));
      }
  switch (kind)
    {
    case TE_RED_SUM:
      return te_float (ctx, type, 0);
    case TE_RED_PROD:
      return te_float (ctx, type, 1);
    case TE_RED_MAX:
      return te_float (ctx, type, -HUGE_VAL);
    case TE_RED_MIN:
      return te_float (ctx, type, HUGE_VAL);
    }
  return NULL;
}

/* Is SEL, a select between ACC and another value T, a max (or min) of
   the two?  Sets *KIND and *T.  */
static bool
match_compare_select (te_node *sel, te_node *acc, te_red_kind *kind,
                      te_node **t)
{
  te_node *c = sel->args[0], *x = sel->args[1], *y = sel->args[2];
  if (c->op == TE_NOT)
    {
      c = c->args[0];
      te_node *z = x;
      x = y;
      y = z;
    }
  if (!((x == acc) ^ (y == acc)))
    return false;
  te_node *other = x == acc ? y : x;
  if (c->op != TE_GT && c->op != TE_GE && c->op != TE_LT && c->op != TE_LE)
    return false;
  te_node *a = c->args[0], *b = c->args[1];
  if (!((a == acc && b == other) || (a == other && b == acc)))
    return false;
  /* Is the value chosen when C holds the larger one?  */
  bool greater = c->op == TE_GT || c->op == TE_GE;
  bool x_larger = greater ? a == x : b == x;
  *kind = x_larger ? TE_RED_MAX : TE_RED_MIN;
  *t = other;
  return true;
}

/* Is V a sum (of + and -) in which ACC is added exactly once?  Then
   *REST is V less ACC.  */
static bool
sum_term (te_ctx *ctx, te_node *v, te_node *acc, te_node **rest,
          te_memo *m)
{
  if (v == acc)
    {
      *rest = NULL;
      return true;
    }
  if (v->op != TE_ADD && v->op != TE_SUB)
    return false;
  for (int k = 0; k < 2; k++)
    {
      te_node *other = v->args[1 - k];
      if (te_contains_memo (other, acc, m) || (v->op == TE_SUB && k == 1))
        continue;
      te_node *r;
      if (!sum_term (ctx, v->args[k], acc, &r, m))
        continue;
      if (v->op == TE_SUB)
        *rest = r ? te_sub (ctx, r, other) : te_neg (ctx, other);
      else
        *rest = r ? te_add (ctx, r, other) : other;
      return true;
    }
  return false;
}

/* Match V, the value of accumulator ACC after one iteration, against
   ACC op T.  Sets *KIND and *BODY; false if V is no such update.  */
bool
te_match_update (te_ctx *ctx, te_node *v, te_node *acc, te_red_kind *kind,
              te_node **body)
{
  /* A sum the optimizer reassociated (-ffast-math): a + (acc + b).  */
  te_node *rest;
  if ((v->op == TE_ADD || v->op == TE_SUB) && v->args[0] != acc
      && v->args[1] != acc)
    {
      te_memo m = { 0 };
      bool sum = sum_term (ctx, v, acc, &rest, &m);
      te_memo_free (&m);
      if (sum)
        {
          *kind = TE_RED_SUM;
          *body = rest;
          return true;
        }
    }
  /* The double fmax of a float accumulator ((float) fmax ((double) acc,
     x) in a float kernel) is fmax (acc, (float) x): rounding to float
     keeps order, and ACC is a float.  So for fmin.  */
  if (v->op == TE_CAST && v->type == acc->type
      && (v->args[0]->op == TE_FMAX || v->args[0]->op == TE_FMIN))
    {
      te_node *m = v->args[0];
      for (int k = 0; k < 2; k++)
        if (m->args[k]->op == TE_CAST && m->args[k]->args[0] == acc
            && !te_contains (m->args[1 - k], acc))
          {
            *kind = m->op == TE_FMAX ? TE_RED_MAX : TE_RED_MIN;
            *body = te_cast (ctx, acc->type, m->args[1 - k]);
            return true;
          }
    }
  /* A float accumulator fed through a wider type ((float) ((double) acc
     + exp ((double) h[j])) for float se; se += exp (h[j]);): the sum (or
     product) of the terms converted to ACC's type, which the gradient
     goes through; the forward rounds each term before adding it, not
     after, a difference of the last bit.  */
  if (v->op == TE_CAST && v->type == acc->type && te_type_is_float (v->type)
      && (v->args[0]->op == TE_ADD || v->args[0]->op == TE_SUB
          || v->args[0]->op == TE_MUL))
    {
      te_node *m = v->args[0];
      for (int k = 0; k < 2; k++)
        if (m->args[k]->op == TE_CAST && m->args[k]->args[0] == acc
            && te_type_is_float (m->type)
            && !te_contains (m->args[1 - k], acc)
            && (m->op != TE_SUB || k == 0))
          {
            te_node *t = te_cast (ctx, acc->type, m->args[1 - k]);
            *kind = m->op == TE_MUL ? TE_RED_PROD : TE_RED_SUM;
            *body = m->op == TE_SUB ? te_neg (ctx, t) : t;
            return true;
          }
    }
  switch (v->op)
    {
    case TE_ADD:
    case TE_MUL:
    case TE_FMAX:
    case TE_FMIN:
    case TE_MAX:
    case TE_MIN:
      if (v->args[0] != acc && v->args[1] != acc)
        return false;
      *body = v->args[0] == acc ? v->args[1] : v->args[0];
      *kind = v->op == TE_ADD                       ? TE_RED_SUM
              : v->op == TE_MUL                     ? TE_RED_PROD
              : v->op == TE_FMAX || v->op == TE_MAX ? TE_RED_MAX
                                                    : TE_RED_MIN;
      return true;
    case TE_SUB:
      if (v->args[0] != acc)
        return false;
      *kind = TE_RED_SUM;
      *body = te_neg (ctx, v->args[1]);
      return true;
    case TE_SELECT:
      {
        te_node *c = v->args[0], *x = v->args[1], *y = v->args[2];
        if (match_compare_select (v, acc, kind, body))
          return true;
        /* A guarded compare-select: g && t > acc ? t : acc (a masked
           maximum, if (keep[j] && x[j] > m) m = x[j]), in either
           order of the conjuncts, as g ? (t > acc ? t : acc) : acc.  */
        if (c->op == TE_AND && y == acc)
          for (int k = 0; k < 2; k++)
            {
              te_node *inner = te_select (ctx, c->args[1 - k], x, acc);
              if (!te_contains (c->args[k], acc)
                  && match_compare_select (inner, acc, kind, body))
                {
                  *body = te_select (ctx, c->args[k], *body,
                                     te_red_identity (ctx, *kind, acc->type));
                  return true;
                }
            }
        /* A guarded update: c ? acc op t : acc, C known to hold in the
           update (c ? (c && t > acc ? t : acc) : acc, as the lifter gives
           if (c && t > acc) acc = t).  */
        if (y == acc && c->type == TE_BOOL)
          x = te_replace (ctx, x, c, te_bool (ctx, true));
        if (x == acc && c->type == TE_BOOL)
          y = te_replace (ctx, y, c, te_bool (ctx, false));
        if (y == acc && te_match_update (ctx, x, acc, kind, body))
          {
            *body = te_select (ctx, c, *body,
                               te_red_identity (ctx, *kind, acc->type));
            return true;
          }
        if (x == acc && te_match_update (ctx, y, acc, kind, body))
          {
            *body = te_select (ctx, c, te_red_identity (ctx, *kind, acc->type),
                               *body);
            return true;
          }
        /* An update in both arms of an if/else, of one kind:
           c ? acc op t1 : acc op t2 is acc op (c ? t1 : t2).  */
        te_red_kind kx, ky;
        te_node *tx, *ty;
        if (te_match_update (ctx, x, acc, &kx, &tx)
            && te_match_update (ctx, y, acc, &ky, &ty) && kx == ky)
          {
            *kind = kx;
            *body = te_select (ctx, c, tx, ty);
            return true;
          }
        return false;
      }
    case TE_REDUCE:
      /* An inner loop's reduction that goes on from ACC (a loop nested
         in the loop of ACC, entered on one arm of a condition): ACC op
         the inner reduction from the identity.  */
      if (v->args[0] != acc || te_contains (v->args[1], acc))
        return false;
      *kind = v->u.red.kind;
      *body = te_reduce_node (ctx, *kind, v->u.red.nloops, v->u.red.loops,
                              te_red_identity (ctx, *kind, acc->type),
                              v->args[1]);
      return true;
    default:
      return false;
    }
}

/* Step 2: if stage PREV ends with an unguarded write of T[W] whose
   counters are those of NEW's loops under other names, return its value
   in NEW's counters and drop the statement from PREV.  */
static te_node *
take_init (te_program *p, te_stage *prev, const te_stage *next,
           te_tensor *t, te_node *w)
{
  if (prev->nloops != next->nloops)
    return NULL;
  for (int k = prev->nstmts - 1; k >= 0; k--)
    {
      te_stmt *st = &prev->stmts[k];
      if (st->dst != t)
        {
          if (te_reads (st->value, t) || te_reads (st->index, t))
            return NULL;
          continue;
        }
      if (st->guard)
        return NULL;
      te_node *value = te_same_element (p->ctx, prev->nloops, prev->loops,
                                        st->index, st->value, next->nloops,
                                        next->loops, w);
      if (!value)
        return NULL;
      memmove (st, st + 1, (prev->nstmts - k - 1) * sizeof *st);
      prev->nstmts--;
      return value;
    }
  return NULL;
}

/* The stage before S that may hold the init of T (step 2): the last one
   that accesses T, when the stages after it and before S leave T and
   what its writes of T read alone (s[n] = 0, then the row's maximum,
   then the sum into s[n]); -1 if none.  */
static int
init_stage (const te_program *p, int s, const te_tensor *t)
{
  int ps = s - 1;
  while (ps >= 0 && !p->stages[ps].call
         && !te_stage_accesses (&p->stages[ps], t))
    ps--;
  if (ps < 0 || p->stages[ps].call)
    return -1;
  const te_stage *prev = &p->stages[ps];
  for (int m = ps + 1; m < s; m++)
    for (int j = 0; j < p->stages[m].nstmts; j++)
      for (int k = 0; k < prev->nstmts; k++)
        if (prev->stmts[k].dst == t
            && te_stmt_reads (&prev->stmts[k], p->stages[m].stmts[j].dst))
          return -1;
  return ps;
}

/* The number of outer loops stage S of P shares with another stage that
   accesses T (per-iteration scratch: acc[r] = 0 in every iteration of
   i and j, then acc[r] += ... over k, then read): an update of T inside
   them restarts in each of their iterations, so it is a reduction over
   the inner loops only.  */
static int
shared_with_access (const te_program *p, int s, const te_tensor *t)
{
  int n = 0;
  for (int o = 0; o < p->nstages; o++)
    {
      const te_stage *x = &p->stages[o];
      if (o == s || x->call)
        continue;
      bool touches = false;
      for (int k = 0; k < x->nstmts && !touches; k++)
        touches = x->stmts[k].dst == t || te_reads (x->stmts[k].value, t)
                  || te_reads (x->stmts[k].index, t)
                  || (x->stmts[k].guard && te_reads (x->stmts[k].guard, t));
      int shared = touches ? te_shared_loops (&p->stages[s], x) : 0;
      if (shared > n)
        n = shared;
    }
  return n;
}

/* Does another stage of P that runs inside loop K of stage S (a stage
   of the same source nest sharing it) write what BODY or GUARD reads, or
   access DST?  Then the loop carries more than the update: the terms of
   its iterations differ by what the other stage wrote (an Euler step's
   v[i] += dt * f (x[i]) beside x[i] += dt * v[i]), or the other stage
   reads the partial results (a running sum stored at every step), and
   the update is no reduction (carry.c keeps it on a tape).  */
static bool
carried_with_others (const te_program *p, int s, int k, const te_tensor *dst,
                     const te_node *body, const te_node *guard)
{
  const te_stage *st = &p->stages[s];
  for (int o = 0; o < p->nstages; o++)
    {
      const te_stage *os = &p->stages[o];
      if (o == s || te_shared_loops (st, os) <= k)
        continue;
      if (os->call)
        return true;
      for (int j = 0; j < os->nstmts; j++)
        {
          const te_stmt *x = &os->stmts[j];
          if (x->dst == dst || te_reads (x->value, dst)
              || te_reads (x->index, dst)
              || (x->guard && te_reads (x->guard, dst))
              || te_reads (body, x->dst)
              || (guard && te_reads (guard, x->dst)))
            return true;
        }
    }
  return false;
}

/* Step 1 for stage S of P; S is rewritten in place.  */
static void
rewrite_stage (te_program *p, int s)
{
  te_stage *st = &p->stages[s];
  if (st->nstmts != 1)
    return;
  te_stmt *u = &st->stmts[0];
  te_ctx *ctx = p->ctx;
  te_node *acc = te_load (ctx, u->dst, u->index);
  te_red_kind kind;
  te_node *body;
  if (!te_match_update (ctx, u->value, acc, &kind, &body)
      || te_reads (body, u->dst)
      || (u->guard && te_reads (u->guard, u->dst)))
    return;
  te_loop keep[TE_MAX_LOOPS], red[TE_MAX_LOOPS];
  int keep_ids[TE_MAX_LOOPS];
  int nkeep = 0, nred = 0;
  int outer = shared_with_access (p, s, u->dst);
  for (int k = 0; k < st->nloops; k++)
    {
      if (k < outer || te_uses_var (u->index, st->loops[k].var))
        {
          keep_ids[nkeep] = st->loop_ids[k];
          keep[nkeep++] = st->loops[k];
        }
      else if (carried_with_others (p, s, k, u->dst, body, u->guard))
        return;
      else
        red[nred++] = st->loops[k];
    }
  if (nred == 0)
    return;
  for (int k = 0; k < nkeep; k++)
    for (int j = 0; j < nred; j++)
      if (te_uses_var (keep[k].extent, red[j].var))
        return;
  if (u->guard)
    body = te_select (ctx, u->guard, body, te_red_identity (ctx, kind,
                                                           u->dst->type));
  st->nloops = nkeep;
  memcpy (st->loops, keep, sizeof keep);
  memset (st->loop_ids, 0, sizeof st->loop_ids);
  memcpy (st->loop_ids, keep_ids, nkeep * sizeof keep_ids[0]);
  te_node *init = acc;
  int ps = init_stage (p, s, u->dst);
  if (ps >= 0)
    {
      te_node *v = take_init (p, &p->stages[ps], st, u->dst, u->index);
      if (v)
        init = te_cast (ctx, u->dst->type, v);
    }
  u->value = te_reduce_node (ctx, kind, nred, red, init, body);
  u->guard = NULL;
}

/* Step 0: an update T[w] = T[w] op e of stage S beside other statements
   (a row's exponentials stored and summed into s[n] in one loop), whose
   index leaves out a loop, moves to a stage of its own with S's loops,
   just before S, when the others neither read nor write T and e reads
   nothing they write (the lifter gave e the values they store): the two
   orders compute the same.  Then step 1 sees it alone.  */
static bool
split_update (te_program *p, int s)
{
  te_stage *st = &p->stages[s];
  if (st->nstmts < 2 || st->call || st->recurrent)
    return false;
  te_ctx *ctx = p->ctx;
  for (int k = 0; k < st->nstmts; k++)
    {
      te_stmt *u = &st->stmts[k];
      te_red_kind kind;
      te_node *body;
      bool all = true;
      for (int l = 0; l < st->nloops; l++)
        all &= te_uses_var (u->index, st->loops[l].var);
      if (u->op != TE_SET || u->ninner || all
          || !te_match_update (ctx, u->value, te_load (ctx, u->dst, u->index),
                               &kind, &body))
        continue;
      bool apart = true;
      for (int j = 0; j < st->nstmts && apart; j++)
        {
          const te_stmt *o = &st->stmts[j];
          if (j == k)
            continue;
          apart = o->dst != u->dst && !te_stmt_reads (o, u->dst)
                  && !te_stmt_reads (u, o->dst);
        }
      if (!apart)
        continue;
      te_stmt moved = *u;
      memmove (u, u + 1, (st->nstmts - 1 - k) * sizeof *u);
      st->nstmts--;
      te_stage copy = *st;
      te_stage *ns = te_program_insert_stage (p, s, moved.loc);
      *ns = copy;
      ns->nstmts = 0;
      ns->stmts = NULL;
      ns->loc = moved.loc;
      te_stmt *x = te_stage_add_stmt (p, ns, moved.dst, moved.index, TE_SET,
                                      moved.value, moved.guard, moved.loc);
      x->pos = moved.pos;
      x->pos_first = moved.pos_first;
      return true;
    }
  return false;
}

bool
te_program_reductions (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int s = 0; s < p->nstages; s++)
    while (split_update (p, s))
      s++; /* the moved update is stage S now, the rest S + 1, which may
              hold another */
  for (int s = 0; s < p->nstages; s++)
    rewrite_stage (p, s);
  /* Drop the stages emptied by step 2.  */
  te_program_drop_empty (p);
  return true;
}

/* ---- hoisting nested reductions ---------------------------------------- */

/* Before:  stage 0: for ():  return[0] = sum (i < n; 0; log (sum (j < c; 0;
                                           exp (x[i*c + j]))));
   After:   stage 0: for i < n:  t0[i] = sum (j < c; 0; exp (x[i*c + j]));
            stage 1: for ():     return[0] = sum (i < n; 0; log (t0[i]));

   A reduction whose terms use the counter of an enclosing reduction is
   computed by a stage of its own, over the counters it uses (and the
   loops of its stage inside which an array it reads is written: a
   scratch row rewritten in each iteration), into a local array that the
   statement then reads: the backward program differentiates
   local arrays like any temporary.  It runs after carry.c, which reads
   a sum over the steps of a time loop where the lifter put it, with the
   record of which step each of its loads sees.  */

typedef struct nested_query
{
  const te_program *p;
  const te_stage *s;
  const te_node *root; /* the statement's value */
  int nvars;
  te_node *found;
} nested_query;

static bool reads_written_in (const te_program *p, te_node *r, int id);

/* Is R inside the terms of the reduction of ROOT that binds V?  */
static bool
inside_binder (const te_node *root, const te_node *r, int v)
{
  te_node *b = te_binding_reduce (root, v);
  return b && b != r && te_contains (b->args[1], r);
}

/* Does reduction R, in value ROOT of a statement of stage S, depend on
   counter V that S does not have: use it, or read an array that a stage
   inside V's source loop writes, V bound by a reduction around R (the
   sum over a sample's scratch row h[j], rewritten for every sample n,
   inside a loss summed over n)?  */
static bool
depends_on (const te_program *p, const te_node *root, te_node *r, int v)
{
  if (te_uses_var_free (r, v))
    return true;
  int id = te_program_var_loop (p, v);
  return id && !te_uses_var (r, v) && !te_binding_loop (r, v)
         && inside_binder (root, r, v) && reads_written_in (p, r, id);
}


static bool
stage_var (const te_stage *s, int v)
{
  for (int k = 0; k < s->nloops; k++)
    if (s->loops[k].var == v)
      return true;
  return false;
}

/* The first reduction, in post-order, that uses a counter its stage does
   not have.  */
static void
find_nested (te_node *n, void *data)
{
  nested_query *q = data;
  if (q->found || n->op != TE_REDUCE)
    return;
  for (int v = 0; v < q->nvars; v++)
    if (!stage_var (q->s, v) && depends_on (q->p, q->root, n, v))
      {
        q->found = n;
        return;
      }
}

/* Does R read an array that a stage inside source loop ID writes (a
   scratch row rewritten in every iteration of the loop, whose reads
   depend on the iteration although their indices do not)?  */
static bool
reads_written_in (const te_program *p, te_node *r, int id)
{
  if (!id)
    return false;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *w = &p->stages[s];
      bool inside = false;
      for (int i = 0; i < w->nloops; i++)
        inside |= w->loop_ids[i] == id;
      for (int k = 0; inside && k < w->nstmts; k++)
        if (te_reads (r, w->stmts[k].dst))
          return true;
    }
  return false;
}

/* Hoist one nested reduction of statement K of stage S; false if none
   or if it cannot be hoisted.  */
static bool
hoist_one (te_program *p, int s, int k)
{
  te_ctx *ctx = p->ctx;
  te_stage *st = &p->stages[s];
  nested_query q = { p, st, st->stmts[k].value, p->nvars, NULL };
  te_walk (st->stmts[k].value, find_nested, &q);
  if (!q.found)
    return false;
  te_node *r = q.found;
  te_loop loops[TE_MAX_LOOPS];
  int ids[TE_MAX_LOOPS] = { 0 };
  int n = 0;
  for (int i = 0; i < st->nloops; i++)
    if ((te_uses_var_free (r, st->loops[i].var)
         || reads_written_in (p, r, st->loop_ids[i]))
        && n < TE_MAX_LOOPS)
      {
        /* A source loop the new stage runs in too, at the same place.  */
        ids[n] = n == i ? st->loop_ids[i] : 0;
        loops[n++] = st->loops[i];
      }
  for (int v = 0; v < p->nvars; v++)
    if (!stage_var (st, v) && depends_on (p, st->stmts[k].value, r, v))
      {
        const te_loop *bl = te_binding_loop (st->stmts[k].value, v);
        if (!bl || n == TE_MAX_LOOPS)
          return false;
        /* A source loop too (what r reads it writes), at its place.  */
        ids[n] = n == 0 || ids[n - 1] ? te_program_var_loop (p, v) : 0;
        loops[n++] = *bl;
      }
  te_node *lin, *size;
  if (!te_linearize_box (ctx, n, loops, &lin, &size))
    return false;
  char name[32];
  snprintf (name, sizeof name, "t%d", p->ntensors);
  te_tensor *t = te_program_add_tensor (p, name, r->type, TE_TK_LOCAL, -1,
                                        st->stmts[k].loc);
  t->size = size;
  te_node *load = te_load (ctx, t, lin);
  te_loc loc = st->stmts[k].loc;
  int nest = st->nest;
  st->stmts[k].value = te_replace (ctx, st->stmts[k].value, r, load);
  /* The new stage goes just before S (which moves one up).  */
  te_stage *h = te_program_insert_stage (p, s, loc);
  h->nest = nest;
  h->nloops = n;
  memcpy (h->loops, loops, sizeof loops);
  for (int i = 0; i < n && ids[i]; i++)
    h->loop_ids[i] = ids[i];
  te_stage_add_stmt (p, h, t, lin, TE_SET, r, NULL, loc);
  return true;
}

bool
te_program_hoist (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      while (hoist_one (p, s, k))
        s++; /* the new stage went before S, which moved up one */
  return true;
}
