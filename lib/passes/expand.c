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
      range.  So each iteration reads only what
      the same iteration wrote.
   3. Every access T[x] in a stage whose shared counters are b1..bn
      becomes T[lin (b) * R + x], lin the row-major number of the shared
      iteration and R one more than the last element the first stage
      writes (the rows are dense: an LSTM's g[4*H] declared g[64] gets
      rows of 4*H), and T gets their count times R elements.  When that
      last element moves with the shared counters (a causal row w[u] for
      u <= t of a scratch w[T]), R is the declared size, which every
      write stays below in a kernel within its bounds.

   Limits: arrays a call reads or writes, arrays also accessed outside
   the nest or read before the first write of an iteration (a value
   carried to the next iteration) are left alone, and refused later as
   before.  The copies cost memory (the dump says how much); contracting
   them back to one iteration in the gradient is future work.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

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

static bool
free_load (const te_stmt *st, te_node *load, void *data)
{
  (void) st;
  return free_index (data, load->args[0]);
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
   statement over a dense range, [*LO, *HI], that does not read T?  */
static const te_stmt *
dense_writer (te_program *p, const te_stage *fs, const te_tensor *t, int n,
              te_node **lo, te_node **hi)
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
    return constant_writers (p, fs, t, n, lo, hi);
  if (!w || w->guard || w->op != TE_SET || te_reads (w->value, t))
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
  if (te_canon_int (ctx, te_sub (ctx, w->index, *lo)) != lin)
    return NULL;
  return w;
}

typedef struct inside_query
{
  te_program *p;
  const te_stage *s, *fs;
  int n;
  te_node *lo, *hi; /* in S's counters */
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
  return m >= 0
         && te_read_range (ctx, st->value, st->guard, load->u.tensor,
                           load->args[0], m, loops, &rlo, &rhi)
         && above_where_run (q, te_sub (ctx, rlo, q->lo))
         && above_where_run (q, te_sub (ctx, q->hi, rhi));
}

/* Is every read of T in stage S, with the loops inside its N shared ones
   and the reductions around each read, inside [LO, HI] (expressions of
   the shared counters of the first stage FS)?  */
static bool
reads_inside (te_program *p, const te_stage *s, const te_tensor *t, int n,
              const te_stage *fs, te_node *lo, te_node *hi)
{
  te_ctx *ctx = p->ctx;
  inside_query q = { p, s, fs, n,
                     te_rename_counters (ctx, lo, n, fs->loops, s->loops),
                     te_rename_counters (ctx, hi, n, fs->loops, s->loops) };
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

/* Steps 1 to 3 for local T.  */
static bool
expand_1 (te_program *p, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  int first = -1, n = TE_MAX_LOOPS + 1;
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
            int m = te_shared_loops (&p->stages[first], &p->stages[s]);
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
        && !free_of_shared (&p->stages[s], t, n))
      return false;
  te_node *lo, *hi;
  if (!dense_writer (p, fs, t, n, &lo, &hi))
    return false;
  one_loop (p, &p->stages[first], t, hi);
  for (int s = first + 1; s < p->nstages; s++)
    if (te_stage_accesses (&p->stages[s], t)
        && !reads_inside (p, &p->stages[s], t, n, fs, lo, hi))
      return false;

  /* Step 3: rows of the elements up to the last one written, HI + 1
     (no more than the array's size in a kernel within its bounds).  */
  te_node *size = te_canon_int (ctx, te_add (ctx, hi, te_int (ctx, 1)));
  for (int k = 0; k < n && size != t->size; k++)
    if (te_uses_var (size, fs->loops[k].var))
      size = t->size;
  for (int s = first; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      if (!te_stage_accesses (st, t))
        continue;
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
