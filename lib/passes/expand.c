/* expand.c -- a local array rewritten in every iteration of an outer loop
   (per-iteration scratch) gets one copy per iteration.

   Before:  stage 0: for b < B, j < H:  h[j] = tanh (sum_i W[j*D + i] x[b*D + i])
            stage 1: for b < B:         y[b] = sum_j w[j] h[j]
   After:   stage 0: for b < B, j < H:  h[b*H + j] = tanh (...)
            stage 1: for b < B:         y[b] = sum_j w[j] h[b*H + j]

   In the source each iteration of the outer loop b writes h before it
   reads it; the gradient, which needs the h of every iteration, would
   otherwise see only the last one (roles.c refuses such a local: "each
   element of 'h' is written more than once").  With one copy per
   iteration the program is single-assignment and the rest of the
   pipeline treats h as any local array written by one nest and read by a
   later one (DESIGN.md section 4b: expand the scratch by the counters of
   the loop that rewrites it).

   1. A candidate is a local array of known size whose accesses (writes
      and reads) are all in stages of one source nest, which share their
      outer loops (the same source loops, loop_ids); no access index uses
      a counter of those shared loops, and their extents use no counter.
   2. The first of those stages writes the array with one unguarded
      statement T[w] = e, e not reading T, and w runs over a dense range
      (every element between its first and last, in order), or with one
      statement per element of 0..c-1 at constant indices (a tile
      initialized with braces); every later read reads inside that
      range, or, when the row is the whole array (elements 0 to its
      declared size less one), at an index read from memory (a gather
      inside a sum that hoist computed apart, exp (z[v] - z[y[n]])):
      within the array's bounds it is in the row.  So each
      iteration reads only what the same iteration wrote.
   2b. A later stage of the same loops may extend the row: one unguarded
      statement over a dense range just above or just below it, which
      may read the row (a seed c[0] = g[0], then the recurrence
      c[1 + j] = c[j] / 2 + g[1 + j]; or c[n - 1], then c[n - 2 - j]
      counting down); the reads of each stage are checked against the
      row so far, its own part included (roles.c checks that a
      recurrence reads earlier iterations).  A later writer that
      rewrites the row (w[u] = exp (w[u] - mx)) is left to version.c.
   3. Every access T[x] in a stage whose shared counters are b1..bn
      becomes T[lin (b) * R + x], lin the row-major number of the shared
      iteration and R one more than the last element the first stage
      writes (the rows are dense: an LSTM's g[4*H] declared g[64] gets
      rows of 4*H), and T gets their count times R elements.  When that
      last element moves with the shared counters (a causal row w[u] for
      u <= t of a scratch w[T]), R is the declared size, which every
      write stays below in a kernel within its bounds.

   4. A read after the row's loops within the same iteration of the
      outer loops (a loss that reads the logit at the target,
      z[tok[t + 1]], or z[1], summed over t): the lifter moved it into a
      reduction over those loops, in a stage that has only the loops
      outside them, and recorded where in the loop's body it was
      (te_timed_read).  Such a stage takes part when every load of T in
      it is inside reductions that bind each missing shared loop, each
      such load came after the statements that write T in the body, T
      is not written there, and the row is the whole array (elements 0
      to its declared size less one), so any read within the array's
      bounds, data or a constant, reads an element the iteration wrote.
      The load names the row of its iteration: lin over the stage's
      loops and the reductions' counters.  The dump notes the array.

   Limits: arrays a call reads or writes, arrays also accessed outside
   the nest (but for step 4's reads) or read before the first write of
   an iteration (a value carried to the next iteration) are left alone,
   and refused later as before; so is a row read after its loops that
   they do not write whole (z[64] written for v < V).  The copies cost
   memory (the dump says how much); contracting them back to one
   iteration in the gradient is future work.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOADS 16


/* Call FN on each load of T in the statements of stage S (values,
   indices, guards) with the statement; false when FN is, or when a
   statement has too many loads of T to rewrite.  */
static bool
each_load (const te_stage *s, const te_tensor *t,
           bool (*fn) (const te_stmt *st, te_node *load, void *data),
           void *data)
{
  for (int k = 0; k < s->nstmts; k++)
    {
      const te_stmt *st = &s->stmts[k];
      te_node *roots[3] = { st->value, st->index, st->guard };
      for (int r = 0; r < 3; r++)
        {
          te_node *loads[MAX_LOADS];
          int nl = roots[r] ? te_loads_of (roots[r], t, loads, MAX_LOADS)
                            : 0;
          if (nl < 0)
            return false;
          for (int i = 0; i < nl; i++)
            if (!fn (st, loads[i], data))
              return false;
        }
    }
  return true;
}

typedef struct shared_query
{
  const te_stage *s;
  int n;
} shared_query;

/* Does INDEX avoid the counters of the first Q->n loops of Q->s?  */
static bool
free_index (const shared_query *q, const te_node *index)
{
  for (int j = 0; j < q->n; j++)
    if (te_uses_var (index, q->s->loops[j].var))
      return false;
  return true;
}

/* Does N use counter VAR other than in the index of a load (the data of
   a gather, z[y[n]], names an element of the row wherever it comes
   from)?  */
static bool
uses_outside_loads (const te_node *n, int var)
{
  if (!n || n->op == TE_LOAD)
    return false;
  if (n->op == TE_VAR)
    return n->u.index == var;
  for (int i = 0; i < 3; i++)
    if (uses_outside_loads (n->args[i], var))
      return true;
  return false;
}

static bool
free_load (const te_stmt *st, te_node *load, void *data)
{
  const shared_query *q = data;
  (void) st;
  for (int j = 0; j < q->n; j++)
    if (uses_outside_loads (load->args[0], q->s->loops[j].var))
      return false;
  return true;
}

/* Do the accesses of T in stage S avoid the counters of its first N
   loops?  False also when S has too many loads of T to rewrite.  */
static bool
free_of_shared (const te_stage *s, const te_tensor *t, int n)
{
  shared_query q = { s, n };
  if (!each_load (s, t, free_load, &q))
    return false;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t && !free_index (&q, s->stmts[k].index))
      return false;
  return true;
}

/* Step 2, for several writers: do the statements of FS that write T,
   with no loop inside the N shared ones, write each element of a dense
   range [*LO, *HI] at a constant index, once, unguarded, without reading
   T (a register tile initialized with braces, acc[4] = {0, 0, 0, 0})?
   The first of them, or NULL.  */
static const te_stmt *
constant_writers (te_program *p, const te_stage *fs, const te_tensor *t,
                  int n, te_node **lo, te_node **hi)
{
  enum { MAX_ELEMS = 64 };
  bool seen[MAX_ELEMS] = { false };
  const te_stmt *first = NULL;
  int64_t top = -1;
  if (fs->nloops != n)
    return NULL;
  for (int k = 0; k < fs->nstmts; k++)
    {
      const te_stmt *w = &fs->stmts[k];
      if (w->dst != t)
        continue;
      if (w->guard || w->op != TE_SET || te_reads (w->value, t)
          || w->ninner || w->index->op != TE_CONST || w->index->u.i < 0
          || w->index->u.i >= MAX_ELEMS || seen[w->index->u.i])
        return NULL;
      seen[w->index->u.i] = true;
      top = w->index->u.i > top ? w->index->u.i : top;
      first = first ? first : w;
    }
  for (int64_t e = 0; e <= top; e++)
    if (!seen[e])
      return NULL;
  *lo = te_int (p->ctx, 0);
  *hi = te_int (p->ctx, top);
  return first;
}

/* The constant writers of T that make up stage S (constant_writers),
   when they all store one value, as one statement over a loop of its
   own, T[c] = v for c < HI + 1: the form a tile zeroed in a loop has,
   which the reductions that start from it know.  */
static void
one_loop (te_program *p, te_stage *s, te_tensor *t, te_node *hi)
{
  te_ctx *ctx = p->ctx;
  if (s->nstmts < 2 || s->nloops == TE_MAX_LOOPS)
    return;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst != t || s->stmts[k].value != s->stmts[0].value
        || s->stmts[k].index->op != TE_CONST)
      return;
  int var = te_program_new_var (p, "c");
  te_stmt st = s->stmts[0];
  s->nstmts = 0;
  te_stage_add_loop (s, var, te_canon_int (ctx, te_add (ctx, hi,
                                                        te_int (ctx, 1))));
  s->loop_ids[s->nloops - 1] = 0;
  te_stmt *x = te_stage_add_stmt (p, s, t, te_var (ctx, var), TE_SET,
                                  st.value, NULL, st.loc);
  x->pos = st.pos;
  x->pos_first = st.pos_first;
}

/* Step 2: is the write of T in FIRST (stage index F) one unguarded
   statement over a dense range, [*LO, *HI], that does not read T (that
   may, when EXTEND: a later writer of step 2b)?  */
static const te_stmt *
dense_writer (te_program *p, const te_stage *fs, const te_tensor *t, int n,
              bool extend, te_node **lo, te_node **hi)
{
  const te_stmt *w = NULL;
  int nw = 0;
  for (int k = 0; k < fs->nstmts; k++)
    if (fs->stmts[k].dst == t)
      {
        w = w ? w : &fs->stmts[k];
        nw++;
      }
  if (nw > 1)
    return extend ? NULL : constant_writers (p, fs, t, n, lo, hi);
  if (!w || w->guard || w->op != TE_SET
      || (!extend && te_reads (w->value, t)))
    return NULL;
  /* Dense: the index less its first element numbers the iterations of
     the loops inside the shared ones, row-major.  */
  te_ctx *ctx = p->ctx;
  te_node *lin = te_int (ctx, 0);
  for (int k = n; k < fs->nloops; k++)
    {
      /* The extents may use the shared counters (u <= t), which stay
         fixed within one row, not the ones inside.  */
      for (int j = n; j < fs->nloops; j++)
        if (te_uses_var (fs->loops[k].extent, fs->loops[j].var))
          return NULL;
      lin = te_add (ctx, te_mul (ctx, lin, fs->loops[k].extent),
                    te_var (ctx, fs->loops[k].var));
    }
  lin = te_canon_int (ctx, lin);
  if (!te_index_range (ctx, w->index, fs->nloops - n, fs->loops + n, lo, hi))
    return NULL;
  /* A later writer may run down (a suffix c[n - 2 - j] after its seed
     c[n - 1]).  */
  if (te_canon_int (ctx, te_sub (ctx, w->index, *lo)) != lin
      && !(extend && te_canon_int (ctx, te_sub (ctx, *hi, w->index)) == lin))
    return NULL;
  return w;
}

typedef struct inside_query
{
  te_program *p;
  const te_stage *s, *fs;
  int n;
  te_node *lo, *hi; /* in S's counters */
  bool whole;       /* the row is the whole array */
} inside_query;

/* Is D >= 0 where Q's stages run, also at its smallest over the shared
   loops (a causal read to u <= t of a row written to u < T: T - 1 - t)?  */
static bool
above_where_run (const inside_query *q, te_node *d)
{
  te_ctx *ctx = q->p->ctx;
  d = te_canon_int (ctx, d);
  if (te_non_negative_where_run (ctx, d, q->fs, q->s))
    return true;
  te_node *lo, *hi;
  return te_index_range (ctx, d, q->n, q->s->loops, &lo, &hi)
         && te_non_negative_where_run (ctx, lo, q->fs, q->s);
}

static bool
load_inside (const te_stmt *st, te_node *load, void *data)
{
  inside_query *q = data;
  te_ctx *ctx = q->p->ctx;
  te_loop loops[2 * TE_MAX_LOOPS];
  int m = te_read_loops (q->p->nvars, q->s, q->n, st->value, load->args[0],
                         loops);
  te_node *rlo, *rhi;
  /* A gather (z[y[n]]): any element within the array's bounds, all of
     which the row holds when it is the whole array.  */
  if (te_reads (load->args[0], NULL))
    return q->whole;
  return m >= 0
         && te_read_range (ctx, st->value, st->guard, load->u.tensor,
                           load->args[0], m, loops, &rlo, &rhi)
         && above_where_run (q, te_sub (ctx, rlo, q->lo))
         && above_where_run (q, te_sub (ctx, q->hi, rhi));
}

/* Is every read of T in stage S, with the loops inside its N shared ones
   and the reductions around each read, inside [LO, HI] (expressions of
   the shared counters of the first stage FS)?  A gather is, when WHOLE
   (the row is the whole array).  */
static bool
reads_inside (te_program *p, const te_stage *s, const te_tensor *t, int n,
              const te_stage *fs, te_node *lo, te_node *hi, bool whole)
{
  te_ctx *ctx = p->ctx;
  inside_query q = { p, s, fs, n,
                     te_rename_counters (ctx, lo, n, fs->loops, s->loops),
                     te_rename_counters (ctx, hi, n, fs->loops, s->loops),
                     whole };
  return each_load (s, t, load_inside, &q);
}

/* N with every load of T at index X made a load at OFF + X.  */
static te_node *
shift_loads (te_ctx *ctx, te_node *n, const te_tensor *t, te_node *off)
{
  if (!n)
    return NULL;
  te_node *loads[MAX_LOADS];
  int nl = te_loads_of (n, t, loads, MAX_LOADS);
  for (int i = 0; i < nl; i++)
    n = te_replace (
        ctx, n, loads[i],
        te_load (ctx, (te_tensor *) t,
                 te_canon_int (ctx, te_add (ctx, off, loads[i]->args[0]))));
  return n;
}

/* ---- step 4: reads after the row's loops --------------------------- */

/* Are all loads of T in N inside a reduction over a counter of source
   loop ID?  M memoizes the answers.  */
static bool
loads_bound (const te_program *p, te_node *n, const te_tensor *t, int id,
             te_memo *m)
{
  if (!n)
    return true;
  void *r = te_memo_get (m, n);
  if (r)
    return r == TE_MEMO_TRUE;
  bool ok = true;
  if (n->op == TE_LOAD && n->u.tensor == t)
    ok = false;
  else if (n->op == TE_REDUCE)
    {
      bool binds = false;
      for (int k = 0; k < n->u.red.nloops; k++)
        binds |= te_program_var_loop (p, n->u.red.loops[k].var) == id;
      ok = loads_bound (p, n->args[0], t, id, m)
           && (binds || loads_bound (p, n->args[1], t, id, m));
    }
  else
    for (int i = 0; i < 3 && ok; i++)
      ok = loads_bound (p, n->args[i], t, id, m);
  te_memo_put (m, n, ok ? TE_MEMO_TRUE : TE_MEMO_FALSE);
  return ok;
}

/* How many of the loops of FS from its M-th on, which stage S (reading,
   not writing, T) lacks and FS's writes of T do not index by, bind every
   load of T in S by a reduction over their source loop: S then reads T
   within one iteration of them.  */
static int
late_depth (const te_program *p, const te_stage *fs, const te_stage *s,
            const te_tensor *t, int m)
{
  if (te_stage_writes (s, t))
    return 0;
  int e = 0;
  for (int k = m; k < fs->nloops && fs->loop_ids[k]; k++, e++)
    {
      /* An outer loop of the row, not one of the row's own (the row's
         reduction, max (u; s[u]), binds those).  */
      for (int j = 0; j < fs->nstmts; j++)
        if (fs->stmts[j].dst == t
            && te_uses_var (fs->stmts[j].index, fs->loops[k].var))
          return e;
      te_memo memo;
      memset (&memo, 0, sizeof memo);
      bool ok = true;
      for (int j = 0; j < s->nstmts && ok; j++)
        ok = loads_bound (p, s->stmts[j].value, t, fs->loop_ids[k], &memo)
             && loads_bound (p, s->stmts[j].index, t, fs->loop_ids[k], &memo)
             && loads_bound (p, s->stmts[j].guard, t, fs->loop_ids[k],
                             &memo);
      te_memo_free (&memo);
      if (!ok)
        break;
    }
  return e;
}

/* The rewrite of the loads of T in a stage of step 4.  */
typedef struct late_rw
{
  te_program *p;
  const te_tensor *t;
  const te_stage *fs, *s;
  int m, n;          /* S has the first M of the N shared loops */
  te_node *lin;      /* the row number, in FS's counters */
  te_node *size;     /* R */
  unsigned wpos;     /* the last store of T in the body */
  int bound[TE_MAX_LOOPS]; /* the counter bound for FS's loop K >= M,
                              or -1 */
  bool failed;
} late_rw;

/* Did every load of T the lifter saw inside the reduction over VAR come
   after W->wpos in the loop's body (and was there one)?  */
static bool
read_after_write (const late_rw *w, int var)
{
  bool seen = false;
  for (int i = 0; i < w->p->ntimed; i++)
    {
      const te_timed_read *r = &w->p->timed[i];
      if (r->tensor != w->t || r->var != var)
        continue;
      if (r->pos <= w->wpos)
        return false;
      seen = true;
    }
  return seen;
}

/* N with each load of T at X made a load at the row of its iteration,
   lin * R + X; the counters of the reductions around N that stand for
   the shared loops in W->bound.  M memoizes within one binding.  */
static te_node *
late_1 (late_rw *w, te_node *n, te_memo *m)
{
  te_ctx *ctx = w->p->ctx;
  if (!n || w->failed)
    return n;
  te_node *r = te_memo_get (m, n);
  if (r)
    return r;
  te_node *args[3] = { NULL, NULL, NULL };
  if (n->op == TE_LOAD && n->u.tensor == w->t)
    {
      te_loop to[TE_MAX_LOOPS];
      for (int k = 0; k < w->n; k++)
        {
          to[k] = w->fs->loops[k];
          if (k < w->m)
            to[k].var = w->s->loops[k].var;
          else if (w->bound[k] >= 0 && read_after_write (w, w->bound[k]))
            to[k].var = w->bound[k];
          else
            w->failed = true;
        }
      if (w->failed)
        return n;
      te_node *l = te_rename_counters (ctx, w->lin, w->n, w->fs->loops, to);
      te_node *off = te_canon_int (ctx, te_mul (ctx, l, w->size));
      r = te_load (ctx, (te_tensor *) w->t,
                   te_canon_int (ctx, te_add (ctx, off, n->args[0])));
    }
  else if (n->op == TE_REDUCE)
    {
      late_rw inner = *w;
      bool binds = false;
      for (int j = 0; j < n->u.red.nloops; j++)
        {
          int id = te_program_var_loop (w->p, n->u.red.loops[j].var);
          for (int k = w->m; k < w->n; k++)
            if (id && id == w->fs->loop_ids[k])
              {
                inner.bound[k] = n->u.red.loops[j].var;
                binds = true;
              }
        }
      args[0] = late_1 (w, n->args[0], m);
      if (binds)
        {
          /* The terms in a binding of their own.  */
          te_memo im;
          memset (&im, 0, sizeof im);
          args[1] = late_1 (&inner, n->args[1], &im);
          te_memo_free (&im);
          w->failed |= inner.failed;
        }
      else
        args[1] = late_1 (w, n->args[1], m);
      r = te_rebuild (ctx, n, args);
    }
  else
    {
      bool changed = false;
      for (int i = 0; i < 3; i++)
        {
          args[i] = late_1 (w, n->args[i], m);
          changed |= args[i] != n->args[i];
        }
      r = changed ? te_rebuild (ctx, n, args) : n;
    }
  te_memo_put (m, n, r);
  return r;
}

/* Step 4 for the statements of stage S, which has the first M of the N
   shared loops of FS: with REWRITE false, can each load of T name the
   row of its iteration?  With REWRITE true, make it.  */
static bool
late_reads (te_program *p, te_stage *s, const te_tensor *t,
            const te_stage *fs, int m, int n, te_node *lin, te_node *size,
            bool rewrite)
{
  late_rw w;
  memset (&w, 0, sizeof w);
  w.p = p;
  w.t = t;
  w.fs = fs;
  w.s = s;
  w.m = m;
  w.n = n;
  w.lin = lin;
  w.size = size;
  for (int j = 0; j < p->nstages; j++)
    for (int k = 0; k < p->stages[j].nstmts; k++)
      if (p->stages[j].stmts[k].dst == t
          && p->stages[j].stmts[k].pos > w.wpos)
        w.wpos = p->stages[j].stmts[k].pos;
  for (int k = 0; k < TE_MAX_LOOPS; k++)
    w.bound[k] = -1;
  for (int k = 0; k < s->nstmts && !w.failed; k++)
    {
      te_stmt *x = &s->stmts[k];
      te_node *roots[3] = { x->value, x->index, x->guard };
      te_memo memo;
      memset (&memo, 0, sizeof memo);
      for (int r = 0; r < 3; r++)
        roots[r] = late_1 (&w, roots[r], &memo);
      te_memo_free (&memo);
      if (rewrite && !w.failed)
        {
          x->value = roots[0];
          x->index = roots[1];
          x->guard = roots[2];
        }
    }
  return !w.failed;
}

/* Steps 1 to 4 for local T.  */
static bool
expand_1 (te_program *p, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  int first = -1, n = TE_MAX_LOOPS + 1;
  bool late = false; /* a stage of step 4 */
  for (int s = 0; s < p->nstages; s++)
    if (te_stage_accesses (&p->stages[s], t))
      {
        if (p->stages[s].call)
          return false;
        if (first < 0)
          {
            first = s;
            n = p->stages[s].nloops;
          }
        else
          {
            const te_stage *fs = &p->stages[first];
            int m = te_shared_loops (fs, &p->stages[s]);
            int e = m < n ? late_depth (p, fs, &p->stages[s], t, m) : 0;
            late |= e > 0;
            m += e;
            n = m < n ? m : n;
          }
      }
  if (first < 0 || n == 0 || !t->size)
    return false;
  const te_stage *fs = &p->stages[first];
  te_node *lin, *count;
  if (!te_linearize (ctx, n, fs->loops, &lin, &count))
    return false;
  for (int k = 0; k < n; k++)
    if (te_uses_var (t->size, fs->loops[k].var))
      return false;
  for (int s = first; s < p->nstages; s++)
    if (te_stage_accesses (&p->stages[s], t)
        && !free_of_shared (&p->stages[s], t,
                            te_shared_loops (fs, &p->stages[s]) < n
                                ? te_shared_loops (fs, &p->stages[s])
                                : n))
      return false;
  te_node *lo, *hi;
  if (!dense_writer (p, fs, t, n, false, &lo, &hi))
    return false;
  one_loop (p, &p->stages[first], t, hi);
  /* Step 2b: the row so far, [LOS[S], HIS[S]], at each later stage S.  */
  te_node **his = calloc (2 * p->nstages, sizeof *his);
  if (!his)
    return false;
  te_node **los = his + p->nstages;
  for (int s = first + 1; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      his[s] = hi;
      los[s] = lo;
      if (!te_stage_writes (st, t))
        continue;
      /* A later writer that rewrites the row (w[u] = exp (w[u] - mx))
         stays for version.c.  */
      te_node *wlo, *whi;
      if (te_shared_loops (fs, st) < n
          || !dense_writer (p, st, t, n, true, &wlo, &whi))
        continue;
      wlo = te_canon_int (ctx, te_rename_counters (ctx, wlo, n, st->loops,
                                                   fs->loops));
      whi = te_canon_int (ctx, te_rename_counters (ctx, whi, n, st->loops,
                                                   fs->loops));
      if (wlo == te_canon_int (ctx, te_add (ctx, hi, te_int (ctx, 1))))
        hi = his[s] = whi;
      else if (lo == te_canon_int (ctx, te_add (ctx, whi, te_int (ctx, 1))))
        lo = los[s] = wlo;
    }
  te_node *size = te_canon_int (ctx, te_add (ctx, hi, te_int (ctx, 1)));
  bool whole = lo == te_int (ctx, 0) && size == te_canon_int (ctx, t->size);
  for (int s = first + 1; s < p->nstages && !(late && !whole); s++)
    {
      te_stage *st = &p->stages[s];
      int m = te_shared_loops (fs, st);
      if (!te_stage_accesses (st, t))
        continue;
      if (m < n ? !late_reads (p, st, t, fs, m, n, lin, size, false)
                : !reads_inside (p, st, t, n, fs, los[s], his[s], whole))
        {
          free (his);
          return false;
        }
    }
  free (his);
  /* Step 4's reads need the whole array.  */
  if (late && !whole)
    return false;

  /* Step 3: rows of the elements up to the last one written, HI + 1
     (no more than the array's size in a kernel within its bounds).  */
  for (int k = 0; k < n && size != t->size; k++)
    if (te_uses_var (size, fs->loops[k].var))
      size = t->size;
  for (int s = first; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      if (!te_stage_accesses (st, t))
        continue;
      int m = te_shared_loops (fs, st);
      if (m < n)
        {
          late_reads (p, st, t, fs, m, n, lin, size, true);
          continue;
        }
      te_node *l = te_rename_counters (ctx, lin, n, fs->loops, st->loops);
      te_node *off = te_canon_int (ctx, te_mul (ctx, l, size));
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          x->value = shift_loads (ctx, x->value, t, off);
          x->guard = shift_loads (ctx, x->guard, t, off);
          x->index = shift_loads (ctx, x->index, t, off);
          if (x->dst == t)
            x->index = te_canon_int (ctx, te_add (ctx, off, x->index));
        }
    }
  t->size = te_canon_int (
      ctx, te_mul (ctx, count, te_binary (ctx, TE_MAX, size, te_int (ctx, 0))));
  t->expanded = n;
  te_program_note (p, "expand: %s, rewritten in every iteration of the "
                   "loops around it, gets one copy per iteration: %s "
                   "elements",
                   t->name, te_node_string (p, t->size));
  if (late)
    te_program_note (p, "expand: %s is read after the loops of its "
                        "iteration, in a sum over them: each read names "
                        "the copy of its iteration",
                     t->name);
  return true;
}

bool
te_program_expand (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_LOCAL)
      expand_1 (p, p->tensors[i]);
  return true;
}
