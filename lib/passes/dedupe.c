/* dedupe.c -- a local array computed twice the same way is computed once.

   Before:  stage 0: for t < T:  mx[t] = max (u < 1 + t; -1e30; s[T*t + u]);
            stage 1: for t < T, u < 1 + t:  p[T*t + u] = exp (s[T*t + u] - mx[t]);
            stage 2: for t < T:  mx'[t] = max (u' < 1 + t; -1e30; s[T*t + u']);
            stage 3: for t < T:  z[t] = sum (u < 1 + t; 0; exp (s[T*t + u] - mx'[t]));
   After:   stage 2 goes; stage 3 reads mx[t].

   The lifter lifts a scalar that a loop reduces once for every stage that
   uses it after the loop (each stage names its counters anew), so a row's
   maximum that two later loops of the source read is computed twice, in
   the forward program and in the gradient that recomputes it.

   1. Stage B copies an earlier stage A when each is one statement that
      sets (=), unguarded, a local array (TA, TB), over loops of the same
      extents, at the same index, with the same value, B's counters and
      the counters of B's reductions named as A's.
   2. TB's values are TA's where B leaves them when nothing else writes
      TA or TB, and no stage between A and B writes what A reads.
   3. Every read of TB becomes a read of TA at the same index
      (te_program_retarget); B and TB go.
   4. A reduction inside a later stage B's statement that computes A's
      value (A's loops B's outermost ones, with the same extents, A's
      counters and those of its reductions named as B's) reads TA at
      A's index instead, where A's iterations each write their own
      element (te_rows_apart), nothing else writes TA and no stage from
      A to B, B included, writes what A reads.  A layer norm's
      mean[i] = sum (j; x[i*m + j]) / m, which the lifter lifts apart
      from s[i] = sum (j; x[i*m + j]) that the row's loop reads, becomes
      mean[i] = s[i] / m; inner reductions first, so the variance's
      sum of (x - s / m)^2 is found next.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

#define MAX_REDS 16

typedef struct red_list
{
  te_loop loops[MAX_REDS * TE_MAX_LOOPS];
  int n;
  bool full;
} red_list;

static void
red_fn (te_node *n, void *data)
{
  red_list *r = data;
  if (n->op != TE_REDUCE)
    return;
  for (int k = 0; k < n->u.red.nloops; k++)
    if (r->n < MAX_REDS * TE_MAX_LOOPS)
      r->loops[r->n++] = n->u.red.loops[k];
    else
      r->full = true;
}

/* Is S one unguarded statement setting a local array?  */
static const te_stmt *
single_set (const te_stage *s)
{
  if (s->call || s->nstmts != 1 || s->reversed || s->recurrent)
    return NULL;
  const te_stmt *st = &s->stmts[0];
  if (st->op != TE_SET || st->guard || st->ninner
      || st->dst->kind != TE_TK_LOCAL)
    return NULL;
  return st;
}

typedef struct var_map
{
  int n;
  const te_loop *from, *to;
  te_memo memo;
} var_map;

static int
map_var (const var_map *m, int var)
{
  for (int k = 0; k < m->n; k++)
    if (m->from[k].var == var)
      return m->to[k].var;
  return var;
}

/* N with its counters, free and bound by its reductions, renamed by M.  */
static te_node *
rename_all (te_ctx *ctx, te_node *n, var_map *m)
{
  if (!n)
    return NULL;
  if (n->op == TE_VAR)
    return te_var (ctx, map_var (m, n->u.index));
  te_node *done = te_memo_get (&m->memo, n);
  if (done)
    return done;
  te_node *args[3];
  for (int i = 0; i < 3; i++)
    args[i] = rename_all (ctx, n->args[i], m);
  te_node *r;
  if (n->op == TE_REDUCE)
    {
      te_loop loops[TE_MAX_LOOPS];
      for (int k = 0; k < n->u.red.nloops; k++)
        {
          loops[k] = (te_loop) {
            .var = map_var (m, n->u.red.loops[k].var),
            .extent = rename_all (ctx, n->u.red.loops[k].extent, m) };
        }
      r = te_reduce_node (ctx, n->u.red.kind, n->u.red.nloops, loops,
                          args[0], args[1]);
    }
  else
    r = te_rebuild (ctx, n, args);
  te_memo_put (&m->memo, n, r);
  return r;
}

/* Step 1: does stage B compute what stage A does?  */
static bool
same_stage (te_ctx *ctx, const te_stage *a, const te_stage *b)
{
  const te_stmt *x = single_set (a), *y = single_set (b);
  if (!x || !y || x->dst == y->dst || a->nloops != b->nloops
      || x->dst->type != y->dst->type)
    return false;
  for (int k = 0; k < a->nloops; k++)
    if (te_canon_int (ctx, te_rename_counters (ctx, b->loops[k].extent, k,
                                               b->loops, a->loops))
        != te_canon_int (ctx, a->loops[k].extent))
      return false;
  red_list ra = { { { 0 } }, 0, false }, rb = { { { 0 } }, 0, false };
  te_walk (x->value, red_fn, &ra);
  te_walk (y->value, red_fn, &rb);
  if (ra.full || rb.full || ra.n != rb.n
      || a->nloops + ra.n > MAX_REDS * TE_MAX_LOOPS)
    return false;
  te_loop from[(MAX_REDS + 1) * TE_MAX_LOOPS], to[(MAX_REDS + 1) * TE_MAX_LOOPS];
  int n = 0;
  for (int k = 0; k < a->nloops; k++)
    {
      from[n] = b->loops[k];
      to[n++] = a->loops[k];
    }
  for (int k = 0; k < rb.n; k++)
    {
      from[n] = rb.loops[k];
      to[n++] = ra.loops[k];
    }
  if (te_canon_int (ctx, te_rename_counters (ctx, y->index, n, from, to))
      != te_canon_int (ctx, x->index))
    return false;
  var_map m = { n, from, to, { 0 } };
  te_node *yv = rename_all (ctx, y->value, &m);
  te_memo_free (&m.memo);
  return te_canon_loads (ctx, yv) == te_canon_loads (ctx, x->value);
}

/* Does a stage of P other than S write T?  */
static bool
written_elsewhere (const te_program *p, int s, const te_tensor *t)
{
  for (int i = 0; i < p->nstages; i++)
    if (i != s && te_stage_writes (&p->stages[i], t))
      return true;
  return false;
}

/* Step 2 for stages A < B.  */
static bool
still_valid (const te_program *p, int a, int b)
{
  const te_stmt *x = &p->stages[a].stmts[0];
  if (written_elsewhere (p, a, x->dst)
      || written_elsewhere (p, b, p->stages[b].stmts[0].dst))
    return false;
  for (int s = a + 1; s < b; s++)
    {
      if (p->stages[s].call)
        return false;
      for (int k = 0; k < p->stages[s].nstmts; k++)
        if (te_reads (x->value, p->stages[s].stmts[k].dst))
          return false;
    }
  return true;
}

/* Is T read by a call, an extent or a tensor's size, which step 3 does not
   rewrite?  */
static bool
read_aside (const te_program *p, const te_tensor *t)
{
  if (te_sizes_read (p, t))
    return true;
  for (int s = 0; s < p->nstages; s++)
    if (p->stages[s].call && te_call_passes (&p->stages[s], t, true))
      return true;
  return false;
}

/* Reductions of an expression, for step 4.  */
typedef struct red_nodes
{
  te_node *r[MAX_REDS];
  int n;
} red_nodes;

static void
red_node_fn (te_node *n, void *data)
{
  red_nodes *r = data;
  if (n->op == TE_REDUCE && r->n < MAX_REDS)
    r->r[r->n++] = n;
}

/* Step 4's tests of stage A for stage B; the load of TA that A's value
   is at B's iteration, or NULL.  */
static te_node *
stored_for (const te_program *p, int a, int b)
{
  te_ctx *ctx = p->ctx;
  const te_stage *sa = &p->stages[a], *sb = &p->stages[b];
  const te_stmt *x = single_set (sa);
  if (!x || x->value->op != TE_REDUCE || sb->call || sb->recurrent
      || sa->nloops > sb->nloops || sa->nloops == 0
      || written_elsewhere (p, a, x->dst))
    return NULL;
  for (int k = 0; k < sa->nloops; k++)
    if (te_canon_int (ctx, te_rename_counters (ctx, sa->loops[k].extent,
                                               sa->nloops, sa->loops,
                                               sb->loops))
        != te_canon_int (ctx, sb->loops[k].extent))
      return NULL;
  for (int s = a + 1; s <= b; s++)
    {
      if (p->stages[s].call)
        return NULL;
      for (int k = 0; k < p->stages[s].nstmts; k++)
        if (te_reads (x->value, p->stages[s].stmts[k].dst))
          return NULL;
    }
  te_node *index = te_canon_int (ctx, x->index), *lo, *span;
  te_loop rev[TE_MAX_LOOPS]; /* innermost first */
  for (int k = 0; k < sa->nloops; k++)
    rev[k] = sa->loops[sa->nloops - 1 - k];
  int none = 0;
  const te_loop *in = NULL;
  if (!te_rows_apart (ctx, sa->nloops, rev, 1, &index, &none, &in, sa, &lo,
                      &span))
    return NULL;
  return te_load (ctx, x->dst,
                  te_rename_counters (ctx, x->index, sa->nloops, sa->loops,
                                      sb->loops));
}

/* Does reduction N of stage B compute the value of stage A's one
   statement, at B's iteration?  */
static bool
same_reduction (te_ctx *ctx, const te_stage *sa, const te_stage *sb,
                te_node *n)
{
  te_node *v = sa->stmts[0].value;
  red_list ra = { { { 0 } }, 0, false }, rn = { { { 0 } }, 0, false };
  te_walk (v, red_fn, &ra);
  te_walk (n, red_fn, &rn);
  if (ra.full || rn.full || ra.n != rn.n
      || sa->nloops + ra.n > MAX_REDS * TE_MAX_LOOPS)
    return false;
  te_loop from[(MAX_REDS + 1) * TE_MAX_LOOPS], to[(MAX_REDS + 1) * TE_MAX_LOOPS];
  int k = 0;
  for (int l = 0; l < sa->nloops; l++)
    {
      from[k] = sa->loops[l];
      to[k++] = sb->loops[l];
    }
  for (int l = 0; l < ra.n; l++)
    {
      from[k] = ra.loops[l];
      to[k++] = rn.loops[l];
    }
  var_map m = { k, from, to, { 0 } };
  te_node *av = rename_all (ctx, v, &m);
  te_memo_free (&m.memo);
  return te_canon_loads (ctx, av) == te_canon_loads (ctx, n);
}

/* Step 4 for stage B: true when a statement changed.  */
static bool
read_stored (te_program *p, int b)
{
  te_stage *sb = &p->stages[b];
  bool changed = false;
  for (int k = 0; k < sb->nstmts; k++)
    {
      te_stmt *st = &sb->stmts[k];
      for (int a = 0; a < b; a++)
        {
          te_node *load = stored_for (p, a, b);
          if (!load || load->u.tensor == st->dst)
            continue;
          red_nodes rs = { { NULL }, 0 };
          te_walk (st->value, red_node_fn, &rs);
          for (int i = 0; i < rs.n; i++)
            if (same_reduction (p->ctx, &p->stages[a], sb, rs.r[i]))
              {
                st->value = te_replace (p->ctx, st->value, rs.r[i], load);
                te_program_note (p, "dedupe: a reduction computing %s "
                                    "again reads it",
                                 load->u.tensor->name);
                changed = true;
                break;
              }
        }
    }
  return changed;
}

bool
te_program_dedupe (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int b = 1; b < p->nstages; b++)
    for (int a = 0; a < b; a++)
      {
        if (!same_stage (p->ctx, &p->stages[a], &p->stages[b])
            || !still_valid (p, a, b))
          continue;
        te_tensor *ta = p->stages[a].stmts[0].dst;
        te_tensor *tb = p->stages[b].stmts[0].dst;
        if (read_aside (p, tb))
          continue;
        p->stages[b].nstmts = 0;
        te_program_retarget (p, tb, ta);
        for (int i = 0; i < p->ntensors; i++)
          if (p->tensors[i] == tb)
            {
              memmove (&p->tensors[i], &p->tensors[i + 1],
                       (p->ntensors - i - 1) * sizeof *p->tensors);
              p->ntensors--;
              break;
            }
        te_program_note (p, "dedupe: %s, computed again the same way, is "
                            "read from %s",
                         tb->name, ta->name);
        break;
      }
  te_program_drop_empty (p);
  for (int b = 1; b < p->nstages; b++)
    for (int round = 0; round < MAX_REDS && read_stored (p, b); round++)
      ;
  return true;
}
