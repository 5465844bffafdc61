/* siblings.c -- inner loops of one time loop that a recurrence runs
   through become one loop.

   Before:  for (t) { for (i) g[t][i] = sigm (sum_j W[i][j] h[t][j]);
                      for (i) h[t+1][i] = tanh (g[t][i] * h[t][i]); }
            stage 0: for t < T, i < H:  g[H*t + i] = sigm (sum (j < H; W[..] * h[H*t + j]));
            stage 1: for t < T, i < H:  h[H + H*t + i] = tanh (g[H*t + i] * h[H*t + i]);
   After:   stage 0: for t < T, i < H:
              g[H*t + i] = sigm (...);
              h[H + H*t + i] = tanh (sigm (...) * h[H*t + i]);

   The lifter gives each inner loop of an outer loop a stage of its own,
   run to its end before the next, which is the source's order only when
   no earlier inner loop reads what a later one writes (roles.c refuses
   the rest).  In a recurrent cell (a GRU's or an LSTM's gates, then its
   state) the first inner loop reads the state the last one wrote in the
   previous step.  Two consecutive stages A and B of one nest, over loops
   of the same extents, are merged into one stage running A's statements
   then B's in each iteration, when that order is the source's too:

   1. what A reads of B's arrays, B wrote in earlier iterations of the
      loop of the recurrence, R (B writing row by row: its index less its
      first element is the number of its iteration in R and the loops
      inside R);
   2. what B reads of A's arrays is the element A wrote in the same
      iteration (A's value is substituted: statements of one stage read
      no element another one writes in the iteration), or an element A
      wrote in earlier iterations of R;
   3. they write different arrays, unguarded.

   R is the outermost loop of the stages for which 1 and 2 hold: a time
   loop, or a time loop inside loops over the samples of a batch, each
   sample's state a block of its own (carry.c's tape, whose blocks are
   apart: what 1 and 2 compare is within one iteration of the loops
   around R).

   Then roles.c finds one recurrent stage, whose gradient ad.c runs
   backwards in one loop.  Each merge is noted.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

/* The largest constant by which a loop is split to match its sibling's
   (four gates of an LSTM, three of a GRU).  */
#define MAX_SPLIT 8

/* The largest element the read T[R] of statement READER in stage S
   reaches at an iteration of S's loops 0 to K (K the loop of the
   recurrence), over the other loops of S and the reductions binding R's
   other counters, where the conditions on its paths hold.  NULL if that
   cannot be told.  */
static te_node *
read_top (te_program *p, const te_stage *s, int k, const te_stmt *reader,
          const te_tensor *t, const te_node *r)
{
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, s, k + 1, reader->value, r, loops);
  te_node *lo, *hi;
  if (n < 0 || !te_read_range (p->ctx, reader->value, reader->guard, t, r, n,
                               loops, &lo, &hi))
    return NULL;
  return hi;
}

/* The last element write W of stage S reaches by the end of the
   iteration before the current one of S's loop K, when W writes in the
   order of the iterations of loop K and those inside it (within one
   iteration of the loops around K); else NULL.  */
static te_node *
written_by_previous (te_program *p, const te_stage *s, int k,
                     const te_stmt *w)
{
  te_ctx *ctx = p->ctx;
  int n = s->nloops - k;
  if (!te_dense (ctx, w->index, n, s->loops + k, NULL, NULL))
    return NULL;
  te_node *v = te_var (ctx, s->loops[k].var);
  te_node *prev = te_replace (ctx, w->index, v,
                              te_sub (ctx, v, te_int (ctx, 1)));
  return te_index_extreme (ctx, prev, n - 1, s->loops + k + 1, true);
}

typedef struct load_scan
{
  te_program *p;
  const te_stage *s;     /* the reading stage */
  const te_stmt *reader;
  const te_stage *ws;    /* the writing stage and ... */
  const te_stmt *w;      /* ... its statement */
  int k;                 /* the loop of the recurrence */
  te_node *same;         /* a load of the element W writes in the same
                            iteration, which is fine (substituted) */
  const te_stage *same_in; /* or of the element any statement of this
                              stage writes (another block of a split
                              loop writing the same array) */
  bool ok;
} load_scan;

static void
scan_fn (te_node *n, void *data)
{
  load_scan *q = data;
  if (!q->ok || n->op != TE_LOAD || n->u.tensor != q->w->dst)
    return;
  if (q->same && n == q->same)
    return;
  for (int k = 0; q->same_in && k < q->same_in->nstmts; k++)
    {
      const te_stmt *y = &q->same_in->stmts[k];
      if (y->dst == n->u.tensor && n->args[0] == y->index)
        return;
    }
  te_ctx *ctx = q->p->ctx;
  te_node *top = read_top (q->p, q->s, q->k, q->reader, n->u.tensor,
                           n->args[0]);
  te_node *prev = written_by_previous (q->p, q->ws, q->k, q->w);
  if (!top || !prev)
    {
      q->ok = false;
      return;
    }
  /* Both in terms of the reader's counters of the loops to K.  */
  prev = te_rename_counters (ctx, prev, q->k + 1, q->ws->loops, q->s->loops);
  q->ok = te_non_negative (ctx, te_sub (ctx, prev, top));
}

/* N in A's counters, N being in those of B (of as many loops).  */
static te_node *
to_counters_of (te_ctx *ctx, te_node *n, const te_stage *b, const te_stage *a)
{
  return te_rename_counters (ctx, n, b->nloops, b->loops, a->loops);
}

/* Steps 1 and 2 for stages A and B with K the loop of the recurrence:
   B's statements in A's counters, reading A's values where they read
   what A writes in the iteration; NULL if the order is not the
   source's.  */
static te_stmt *
in_order (te_program *p, const te_stage *a, const te_stage *b, int k)
{
  te_ctx *ctx = p->ctx;
  if (te_shared_loops (a, b) <= k)
    return NULL;
  /* Step 1.  */
  for (int i = 0; i < a->nstmts; i++)
    for (int j = 0; j < b->nstmts; j++)
      {
        load_scan q = { p, a, &a->stmts[i], b, &b->stmts[j], k, NULL, NULL,
                       true };
        te_walk (a->stmts[i].value, scan_fn, &q);
        te_walk (a->stmts[i].index, scan_fn, &q);
        if (!q.ok)
          return NULL;
      }
  /* Step 2, B's statements in A's counters.  */
  te_stmt *renamed = te_alloc (ctx, b->nstmts * sizeof *renamed);
  for (int j = 0; j < b->nstmts; j++)
    {
      renamed[j] = b->stmts[j];
      renamed[j].index = te_canon_int (ctx, to_counters_of (ctx, b->stmts[j].index,
                                                    b, a));
      renamed[j].value = to_counters_of (ctx, b->stmts[j].value, b, a);
      for (int i = 0; i < a->nstmts; i++)
        {
          te_stmt *w = &a->stmts[i];
          te_node *same = te_load (ctx, w->dst, w->index);
          load_scan q = { p, a, &renamed[j], a, w, k, same, a, true };
          te_walk (renamed[j].value, scan_fn, &q);
          te_walk (renamed[j].index, scan_fn, &q);
          if (!q.ok)
            return NULL;
          renamed[j].value = te_replace (ctx, renamed[j].value, same,
                                         te_cast (ctx, w->dst->type,
                                                  w->value));
        }
    }
  return renamed;
}

/* Steps 1-3 for stages A and B (B right after A); merges B into A.  */
static bool
merge (te_program *p, te_stage *a, te_stage *b)
{
  te_ctx *ctx = p->ctx;
  if (a->nest < 0 || a->nest != b->nest || a->call || b->call
      || !a->nstmts || !b->nstmts || a->nloops != b->nloops || !a->nloops
      || !a->loop_ids[0] || a->loop_ids[0] != b->loop_ids[0])
    return false;
  for (int k = 0; k < a->nloops; k++)
    if (te_canon_int (ctx, to_counters_of (ctx, b->loops[k].extent, b, a))
        != te_canon_int (ctx, a->loops[k].extent))
      return false;
  /* Only where it is needed: A reads what B writes.  */
  bool needed = false;
  for (int i = 0; i < a->nstmts; i++)
    for (int j = 0; j < b->nstmts; j++)
      needed |= te_reads (a->stmts[i].value, b->stmts[j].dst);
  if (!needed)
    return false;
  /* Step 3.  */
  for (int i = 0; i < a->nstmts; i++)
    for (int j = 0; j < b->nstmts; j++)
      if (a->stmts[i].dst == b->stmts[j].dst || a->stmts[i].guard
          || b->stmts[j].guard || a->stmts[i].ninner || b->stmts[j].ninner)
        return false;
  te_stmt *renamed = NULL;
  for (int k = 0; k < a->nloops && !renamed; k++)
    renamed = in_order (p, a, b, k);
  if (!renamed)
    return false;
  for (int j = 0; j < b->nstmts; j++)
    {
      te_stage_add_stmt (p, a, renamed[j].dst, renamed[j].index,
                         renamed[j].op, renamed[j].value, NULL,
                         renamed[j].loc);
    }
  b->nstmts = 0;
  te_program_note (p, "merge: the loops writing %s and %s, one step of a "
                      "recurrence, run as one",
                   a->stmts[0].dst->name, renamed[0].dst->name);
  return true;
}

/* The constant C, 2 to MAX_SPLIT, by which A's loop K runs C times as
   far as B's, all other extents being equal; 0 if there is none.  */
static int
split_factor (te_program *p, const te_stage *a, const te_stage *b, int *k)
{
  te_ctx *ctx = p->ctx;
  if (a->nest < 0 || a->nest != b->nest || a->call || b->call
      || a->nloops != b->nloops || a->nloops < 2)
    return 0;
  int c = 0;
  for (int j = 0; j < a->nloops; j++)
    {
      te_node *ea = te_canon_int (ctx, a->loops[j].extent);
      te_node *eb = te_canon_int (ctx, to_counters_of (ctx, b->loops[j].extent,
                                                       b, a));
      if (ea == eb)
        continue;
      if (c || j == 0)
        return 0;
      for (int f = 2; f <= MAX_SPLIT && !c; f++)
        if (te_canon_int (ctx, te_mul (ctx, te_int (ctx, f), eb)) == ea)
          c = f;
      if (!c)
        return 0;
      *k = j;
    }
  /* The loops inside K must not depend on its counter, and A's
     statements must not read what A writes: their order changes.  */
  for (int j = *k + 1; j < a->nloops; j++)
    if (te_uses_var (a->loops[j].extent, a->loops[*k].var))
      return 0;
  for (int i = 0; i < a->nstmts; i++)
    for (int j = 0; j < a->nstmts; j++)
      {
        const te_stmt *x = &a->stmts[i];
        if (x->guard || x->ninner || te_reads (x->value, a->stmts[j].dst)
            || te_reads (x->index, a->stmts[j].dst))
          return 0;
      }
  return c;
}

/* Split A's loop K, C times as far as B's (split_factor), into C
   statements per statement of A, the Q-th at r = Q * E + j over j < E,
   E being B's extent (an LSTM's gates g[r] over r < 4*H, before the
   loop over its states j < H, which reads g[j], g[H + j], ...).  The
   stage's iterations then run the C blocks side by side.  */
static void
split (te_program *p, te_stage *a, const te_stage *b, int k, int c)
{
  te_ctx *ctx = p->ctx;
  te_node *e = te_canon_int (ctx, to_counters_of (ctx, b->loops[k].extent,
                                                  b, a));
  te_node *v = te_var (ctx, a->loops[k].var);
  te_stage tmp;
  memset (&tmp, 0, sizeof tmp);
  for (int q = 0; q < c; q++)
    for (int i = 0; i < a->nstmts; i++)
      {
        const te_stmt *x = &a->stmts[i];
        te_node *r = te_add (ctx, te_mul (ctx, te_int (ctx, q), e), v);
        te_stmt *y = te_stage_add_stmt (
            p, &tmp, x->dst, te_canon_int (ctx, te_replace (ctx, x->index, v, r)),
            x->op, te_canon_loads (ctx, te_replace (ctx, x->value, v, r)),
            NULL, x->loc);
        y->pos = x->pos;
        y->pos_first = x->pos_first;
      }
  a->stmts = tmp.stmts;
  a->nstmts = tmp.nstmts;
  a->loops[k].extent = e;
}

/* Is T read anywhere in P: by a statement, a call, an extent or a
   size?  */
static bool
read_in (const te_program *p, const te_tensor *t)
{
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      if (te_call_passes (st, t, true))
        return true;
      for (int k = 0; k < st->nloops; k++)
        if (te_reads (st->loops[k].extent, t))
          return true;
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          if (te_reads (x->value, t) || te_reads (x->index, t)
              || (x->guard && te_reads (x->guard, t)))
            return true;
        }
    }
  return te_sizes_read (p, t);
}

/* Drop the statements of A that write a local array nothing reads any
   more: a copy's source (hn in h[i] = hn[i]) or the blocks of a split
   loop, whose values the merge substituted into the statements that
   read them.  */
static void
drop_dead_blocks (te_program *p, te_stage *a)
{
  int out = 0;
  for (int k = 0; k < a->nstmts; k++)
    {
      te_tensor *t = a->stmts[k].dst;
      if (t->kind == TE_TK_LOCAL && !read_in (p, t))
        continue;
      a->stmts[out++] = a->stmts[k];
    }
  a->nstmts = out;
}

/* Merge B into A (merge), splitting A's loop first when it runs a
   constant times as far as B's (split); A is left as it was if the
   merge fails.  */
static bool
split_and_merge (te_program *p, te_stage *a, te_stage *b)
{
  if (merge (p, a, b))
    {
      drop_dead_blocks (p, a);
      return true;
    }
  int k = -1;
  int c = split_factor (p, a, b, &k);
  if (!c)
    return false;
  te_stage saved = *a;
  const char *name = a->stmts[0].dst->name;
  te_node *ext = a->loops[k].extent;
  split (p, a, b, k, c);
  if (!merge (p, a, b))
    {
      *a = saved;
      return false;
    }
  te_program_note (p, "split: the loop writing %s, over %s, runs as %d "
                      "statements over %s",
                   name, te_node_string (p, ext), c,
                   te_node_string (p, a->loops[k].extent));
  drop_dead_blocks (p, a);
  return true;
}

bool
te_program_merge_siblings (te_program *p, te_diag *diag)
{
  (void) diag;
  bool any = false;
  for (int s = 0; s + 1 < p->nstages; s++)
    {
      /* The next non-empty stage.  */
      int n = s + 1;
      while (n < p->nstages && te_stage_empty (&p->stages[n]))
        n++;
      if (n < p->nstages
          && split_and_merge (p, &p->stages[s], &p->stages[n]))
        {
          any = true;
          s--; /* a third sibling may follow */
        }
    }
  if (any)
    {
      te_program_drop_empty (p);
    }
  return true;
}
