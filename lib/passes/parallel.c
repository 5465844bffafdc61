/* parallel.c -- the gradient's loop nests that run on OpenMP threads.

   Before (a tanh dense layer whose forward ran its rows under #pragma
   omp parallel for; the backward program after the other passes):
       stage 0: for (fused) i < n:
         for r < m: d1[r] = 0;
         for j < m: d1[j] += d_y[j + m*i] * (1 - y[j + m*i] * y[j + m*i]);
         for j < m: d_b[j] += d1[j];
         for p < k, j < m: d_x[p + k*i] += w[j + m*p] * d1[j];
         for p < k, j < m: d_w[j + m*p] += x[p + k*i] * d1[j];
   After: the same, marked (parallel), with d1 a row per thread and d_b,
   d_w summed per thread; plugin/emit.cc runs the loop over i on threads
   (static schedule), each thread adding to zeroed partials of d_b and
   d_w of its own, which are added to them in the order of the threads
   after the loop.

   1. Which stages may: with the option parallel, every stage; otherwise,
      when the forward ran a loop on threads (a worksharing loop of a
      parallel region, te_program_set_parallel_loop), the stages that
      count such a loop (their loops, their statements' own loops or
      the loops of their reductions).
   2. Such a stage runs its outermost loop on threads when it is no
      call and no matrix product (blas.c: the CBLAS has threads of its
      own; a tiled product, te_program.tiled, is marked te_stage.team
      instead, and the emitter runs its calls on the threads, each on a
      block of the result's columns), runs forwards, is no
      recurrence, does not sum along its loop in lanes when it has one
      (lanes.c: the emitter runs the blocks of such a loop on threads,
      each block in one thread, and the rest after them), and every
      array a statement of it writes is
      a. written and read in rows that distinct iterations of that loop
         do not share (te_rows_apart): each element is written by one
         thread, in the serial order; or
      b. a one-element local that only this stage touches, set by the
         first statement that touches it: a value each iteration
         computes anew, which each thread keeps a copy of (VALUES, the
         emitter's stack element); or a local array (the rows pass's row)
         that only this stage touches, whose first statement there sets
         a run of elements holding all that the iteration then reads or
         writes: each thread gets an array of its own (SCRATCH); or
      c'. only added to (+=) in this stage, never read there, at
         elements whose range in one iteration (over the stage's other
         loops and the statements' own) lies wholly below (or above)
         the range of every later iteration, for each pair of
         statements writing it: each element is added to by one
         iteration, as in a.  A quotient of sizes in the difference of
         the bounds is read as what it is (X = X / Y * Y + R, R >= 0):
         attention's heads, C / NH * h + i for h < NH, i < C / NH,
         stay below C; or
      c. only added to (+=) in this stage, never read there, at elements
         whose range over all the stage's loops can be told: summed per
         thread, then in the order of the threads.  When the lowest and
         the highest element one iteration reaches never decrease as the
         counter grows, and move with it (thread_range: a convolution's
         input adjoint), a thread's partial holds only the elements from
         the lowest of its first iteration to the highest of its last
         (te_parallel.first, last).
      Everything else the gradient computes per iteration (counters,
      accumulators, shared values) is the emitter's locals, which each
      thread keeps a copy of.
   3. Each decision is noted (parallel: ...), with the reason a stage
      that may stays serial.
   4. How much one run of the stage does (te_parallel.work): the
      iterations of each statement's loops plus those of the loops of
      the sums in its value, each extent at its largest over the loops
      outside it (te_index_upper: a triangle counts as its box), summed
      over the statements.  The emitter gives the region a team of one
      thread where that is below the option parallel-min: waking a
      sleeping thread and joining it cost a softmax's gradient over
      256 x 1024 floats 40 microseconds of its 57 (two threads, passive
      waiting, this machine), more than the second thread saved.

   The numeric contract: without partials the result is the serial
   gradient's, bit for bit; with them, each partial sums its thread's
   iterations in order and the partials are added in thread order, so
   the result depends on the number of threads (and is the same for a
   given number on every run), not on timing.

   Limits: only the outermost loop; a guard on a write narrows nothing
   in c' (a padded convolution's input adjoint reaches the rows of the
   next sample where its taps are skipped, and keeps its partials); an
   array a stage both adds to from
   every iteration and reads keeps it serial, and so does a row that
   every iteration adds to without setting it first.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

#define MAX_ACCESS 32
#define MAX_WRITTEN 16

/* Does N use a counter of a loop the forward ran on threads?  */
typedef struct uses_query
{
  const te_program *p;
  bool found;
} uses_query;

static void
parallel_red_fn (te_node *n, void *data)
{
  uses_query *q = data;
  if (n->op != TE_REDUCE)
    return;
  for (int k = 0; k < n->u.red.nloops; k++)
    q->found |= te_program_var_parallel (q->p, n->u.red.loops[k].var);
}

/* Step 1: may stage S of P run on threads?  */
static bool
asks_for_threads (const te_program *p, const te_stage *s)
{
  if (p->parallel_all)
    return true;
  if (!p->nparallel)
    return false;
  for (int k = 0; k < s->nloops; k++)
    if (te_program_var_parallel (p, s->loops[k].var))
      return true;
  uses_query q = { p, false };
  for (int i = 0; i < s->nstmts && !q.found; i++)
    {
      const te_stmt *x = &s->stmts[i];
      for (int k = 0; k < x->ninner; k++)
        q.found |= te_program_var_parallel (p, x->inner[k].var);
      te_walk (x->value, parallel_red_fn, &q);
      if (x->guard)
        te_walk (x->guard, parallel_red_fn, &q);
    }
  return q.found;
}

/* The accesses of T in stage S, each with the loops inside the
   outermost around it (the stage's others, then the statement's own),
   into Q; false when a read cannot be placed so (inside a reduction, in
   a guard or an index) or there are too many.  */
typedef struct accesses
{
  int n;
  te_node *index[MAX_ACCESS];
  int nin[MAX_ACCESS];
  te_loop inner[MAX_ACCESS][2 * TE_MAX_LOOPS];
  const te_loop *in[MAX_ACCESS];
  bool reads, sets; /* T is read; T is written by = */
} accesses;

static bool
add_access (accesses *q, const te_stage *s, const te_stmt *x, te_node *index)
{
  if (q->n == MAX_ACCESS || s->nloops - 1 + x->ninner > 2 * TE_MAX_LOOPS)
    return false;
  int m = 0;
  for (int l = 1; l < s->nloops; l++)
    q->inner[q->n][m++] = s->loops[l];
  for (int l = 0; l < x->ninner; l++)
    q->inner[q->n][m++] = x->inner[l];
  q->index[q->n] = index;
  q->nin[q->n] = m;
  q->in[q->n] = q->inner[q->n];
  q->n++;
  return true;
}

static bool
collect_accesses (const te_stage *s, const te_tensor *t, accesses *q)
{
  memset (q, 0, sizeof *q);
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      if (x->dst == t)
        {
          q->sets |= x->op == TE_SET;
          if (!add_access (q, s, x, x->index))
            return false;
        }
      if (!te_stmt_reads (x, t))
        continue;
      q->reads = true;
      if (te_reads_in_reduction (x->value, t) || te_reads (x->index, t)
          || (x->guard && te_reads (x->guard, t)))
        return false;
      te_node *loads[MAX_ACCESS];
      int nl = te_loads_of (x->value, t, loads, MAX_ACCESS);
      if (nl < 0)
        return false;
      for (int k = 0; k < nl; k++)
        if (!add_access (q, s, x, loads[k]->args[0]))
          return false;
    }
  return true;
}

/* Step 2b: is T a one-element local that stage SI of P alone touches,
   set by the first of its statements that touches it?  */
static bool
iteration_value (const te_program *p, int si, const te_tensor *t)
{
  if (t->kind != TE_TK_LOCAL || !te_is_const (t->size, 1))
    return false;
  for (int s = 0; s < p->nstages; s++)
    if (s != si && te_stage_accesses (&p->stages[s], t))
      return false;
  const te_stage *s = &p->stages[si];
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      if (te_stmt_reads (x, t))
        return false;
      if (x->dst == t)
        return x->op == TE_SET && !x->guard;
    }
  return false;
}

/* The lowest and highest element of T that access INDEX of statement X
   reaches in one iteration of the stage (over X's own loops) into *LO
   and *HI; false when INDEX uses a loop of the stage or its range cannot
   be told.  */
static bool
row_range (te_ctx *ctx, const te_stage *s, const te_stmt *x, te_node *index,
           te_node **lo, te_node **hi)
{
  for (int l = 0; l < s->nloops; l++)
    if (te_uses_var (index, s->loops[l].var))
      return false;
  return te_index_range (ctx, index, x->ninner, x->inner, lo, hi);
}

/* Is integer expression N (of the sizes and stage S's counters) at least
   0 wherever S runs?  */
static bool
never_negative (te_ctx *ctx, const te_stage *s, te_node *n)
{
  te_node *lo, *hi;
  n = te_canon_int (ctx, n);
  return te_non_negative (ctx, n)
         || (te_index_range (ctx, n, s->nloops, s->loops, &lo, &hi)
             && te_non_negative (ctx, lo));
}

/* Step 2b': is T a local array that stage SI of P alone touches, whose
   first statement that touches it sets a whole run of elements (every
   one from the lowest to the highest it reaches: its index steps by one
   along one loop of its own) that holds every element any later access
   of the stage reaches in the iteration?  Then each iteration rewrites
   what it reads, and a thread may keep a copy of its own.  */
static bool
iteration_row (const te_program *p, int si, const te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  if (t->kind != TE_TK_LOCAL)
    return false;
  for (int s = 0; s < p->nstages; s++)
    if (s != si && te_stage_accesses (&p->stages[s], t))
      return false;
  const te_stage *s = &p->stages[si];
  /* Only a fused stage runs its statements in one nest, each iteration
     all of them in order.  */
  if (!s->fused)
    return false;
  te_node *lo0 = NULL, *hi0 = NULL;
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      bool reads = te_stmt_reads (x, t);
      if (!lo0)
        {
          if (reads)
            return false;
          if (x->dst != t)
            continue;
          int unit = 0;
          for (int l = 0; l < x->ninner; l++)
            {
              te_node *c = te_coefficient (ctx, x->index, x->inner[l].var);
              if (te_is_const (c, 1))
                unit++;
              else if (!te_is_const (c, 0))
                return false;
            }
          if (x->op != TE_SET || x->guard || unit != 1
              || !row_range (ctx, s, x, x->index, &lo0, &hi0)
              || !te_param_poly (lo0) || !te_param_poly (hi0))
            return false;
          continue;
        }
      if (reads && (te_reads_in_reduction (x->value, t)
                    || te_reads (x->index, t)
                    || (x->guard && te_reads (x->guard, t))))
        return false;
      te_node *loads[MAX_ACCESS];
      int nl = reads ? te_loads_of (x->value, t, loads, MAX_ACCESS) : 0;
      if (nl < 0)
        return false;
      if (x->dst == t)
        loads[nl++] = NULL; /* the store */
      for (int k = 0; k < nl; k++)
        {
          te_node *index = loads[k] ? loads[k]->args[0] : x->index, *lo, *hi;
          /* Its range may move with the stage's counters (u <= t of a
             causal row): inside the set run wherever the stage runs.  */
          if (!row_range (ctx, s, x, index, &lo, &hi)
              || !never_negative (ctx, s, te_sub (ctx, lo, lo0))
              || !never_negative (ctx, s, te_sub (ctx, hi0, hi)))
            return false;
        }
    }
  return lo0 != NULL;
}

/* A quotient X / Y of a parameter X by an integer expression of the
   sizes, found in a node (te_walk's DATA).  */
typedef struct quotient_query
{
  te_node *found;
} quotient_query;

static void
quotient_fn (te_node *n, void *data)
{
  quotient_query *q = data;
  if (!q->found && n->op == TE_DIV && n->args[0]->op == TE_PARAM
      && te_param_poly (n->args[1]))
    q->found = n;
}

/* Is integer expression N at least 0 wherever stage S runs, also when a
   quotient of sizes in it has to be read as what it is?  With each
   quotient Q = X / Y of a parameter X written as a fresh A and X as
   A * Y + R (0 <= R < Y: C's division of sizes, which are not negative),
   C - C / NH * NH becomes R.  */
static bool
never_negative_quotients (te_ctx *ctx, const te_stage *s, te_node *n)
{
  if (never_negative (ctx, s, n))
    return true;
  n = te_canon_int (ctx, n);
  for (int k = 0; k < 4; k++)
    {
      quotient_query q = { NULL };
      te_walk (n, quotient_fn, &q);
      if (!q.found)
        return false;
      te_node *a = te_param_ref (ctx, TE_I64, -6100 - 2 * k);
      te_node *r = te_param_ref (ctx, TE_I64, -6101 - 2 * k);
      te_node *x = q.found->args[0], *y = q.found->args[1];
      n = te_replace (ctx, n, q.found, a);
      n = te_canon_int (
          ctx, te_replace (ctx, n, x,
                           te_add (ctx, te_mul (ctx, a,
                                                te_cast (ctx, a->type, y)),
                                   r)));
      if (never_negative (ctx, s, n))
        return true;
    }
  return false;
}

/* The lowest and highest element of T that each statement of stage S
   writing it reaches in one iteration of the outermost loop (over the
   stage's other loops and its own), in terms of that loop's counter,
   into LO and HI (room for MAX_ACCESS); their number, or -1 when one
   cannot be told.  */
static int
iteration_bounds (te_ctx *ctx, const te_stage *s, const te_tensor *t,
                  te_node **lo, te_node **hi)
{
  int n = 0;
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      if (x->dst != t)
        continue;
      if (n == MAX_ACCESS || s->nloops - 1 + x->ninner > 2 * TE_MAX_LOOPS)
        return -1;
      te_loop inner[2 * TE_MAX_LOOPS];
      int m = 0;
      for (int l = 1; l < s->nloops; l++)
        inner[m++] = s->loops[l];
      for (int l = 0; l < x->ninner; l++)
        inner[m++] = x->inner[l];
      if (!te_index_range (ctx, x->index, m, inner, &lo[n], &hi[n]))
        return -1;
      n++;
    }
  return n;
}

/* Is N, an expression of the sizes and stage S's outermost counter V, an
   expression of those alone that never decreases as V grows?  */
static bool
grows_with (te_ctx *ctx, const te_stage *s, te_node *n)
{
  te_node *v = te_var (ctx, s->loops[0].var);
  te_node *probe = te_param_ref (ctx, TE_I64, -6200);
  if (!te_param_poly (te_canon_int (ctx, te_replace (ctx, n, v, probe))))
    return false;
  te_node *later = te_add (ctx, v,
                           te_add (ctx, te_int (ctx, 1),
                                   te_param_ref (ctx, TE_I64, -6000)));
  return never_negative_quotients (
      ctx, s, te_sub (ctx, te_replace (ctx, n, v, later), n));
}

/* Step 2c, each thread's part: the lowest and highest element of T that
   one iteration of stage S's outermost loop adds to, as expressions of
   its counter that never decrease as it grows, into *FIRST and *LAST:
   then the iterations from A to B reach no element outside FIRST (A) to
   LAST (B), and a thread's partial needs no more.  False when they
   cannot be told so.  */
static bool
thread_range (te_ctx *ctx, const te_stage *s, const te_tensor *t,
              te_node **first, te_node **last)
{
  te_node *lo[MAX_ACCESS], *hi[MAX_ACCESS];
  int n = iteration_bounds (ctx, s, t, lo, hi);
  if (n <= 0)
    return false;
  te_node *f = NULL, *l = NULL;
  for (int a = 0; a < n; a++)
    {
      if (!grows_with (ctx, s, lo[a]) || !grows_with (ctx, s, hi[a]))
        return false;
      f = f && f != lo[a] ? te_binary (ctx, TE_MIN, f, lo[a]) : lo[a];
      l = l && l != hi[a] ? te_binary (ctx, TE_MAX, l, hi[a]) : hi[a];
    }
  *first = te_canon_int (ctx, f);
  *last = te_canon_int (ctx, l);
  /* A range the same in every iteration (a weight's) is the whole.  */
  return te_uses_var (*first, s->loops[0].var)
         || te_uses_var (*last, s->loops[0].var);
}

/* Step 2c': does every iteration of stage S's outermost loop add to
   elements of T that no other iteration reaches?  The range of T each
   statement reaches in one iteration v (over the stage's other loops
   and its own) lies, for every pair of statements, wholly below (or,
   for all pairs, wholly above) the range any later iteration v + 1 + w
   reaches.  Then T needs no partials: each element is added to by one
   thread, in the serial order.  (The heads of attention's d_qkv:
   C / NH * h + i with h < NH and i < C / NH stays below C.)  */
static int iteration_bounds (te_ctx *ctx, const te_stage *s,
                             const te_tensor *t, te_node **lo, te_node **hi);

static bool
iterations_apart (te_ctx *ctx, const te_stage *s, const te_tensor *t)
{
  te_node *lo[MAX_ACCESS], *hi[MAX_ACCESS];
  int n = iteration_bounds (ctx, s, t, lo, hi);
  if (n <= 0)
    return false;
  te_node *v = te_var (ctx, s->loops[0].var);
  te_node *later = te_add (ctx, v,
                           te_add (ctx, te_int (ctx, 1),
                                   te_param_ref (ctx, TE_I64, -6000)));
  bool up = true, down = true;
  for (int a = 0; a < n && (up || down); a++)
    for (int b = 0; b < n && (up || down); b++)
      {
        te_node *lo_b = te_replace (ctx, lo[b], v, later);
        te_node *hi_b = te_replace (ctx, hi[b], v, later);
        te_node *one = te_int (ctx, 1);
        up = up && never_negative_quotients (
                       ctx, s, te_sub (ctx, te_sub (ctx, lo_b, hi[a]), one));
        down = down && never_negative_quotients (
                           ctx, s, te_sub (ctx, te_sub (ctx, lo[a], hi_b),
                                           one));
      }
  return n && (up || down);
}

/* Step 2c: the range of elements of T that stage S adds to, over all
   its loops, into *LO and *SPAN; false when it cannot be told.  */
static bool
added_range (te_ctx *ctx, const te_stage *s, const te_tensor *t,
             te_node **lo, te_node **span)
{
  te_node *first = NULL, *last = NULL;
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      if (x->dst != t)
        continue;
      if (x->op != TE_ADD_TO || s->nloops + x->ninner > 2 * TE_MAX_LOOPS)
        return false;
      te_loop all[2 * TE_MAX_LOOPS];
      int n = 0;
      for (int l = 0; l < s->nloops; l++)
        all[n++] = s->loops[l];
      for (int l = 0; l < x->ninner; l++)
        all[n++] = x->inner[l];
      te_node *a, *b;
      if (!te_index_range (ctx, x->index, n, all, &a, &b)
          || !te_param_poly (a) || !te_param_poly (b))
        return false;
      first = first && first != a
                  ? te_canon_int (ctx, te_binary (ctx, TE_MIN, first, a))
                  : a;
      last = last && last != b
                 ? te_canon_int (ctx, te_binary (ctx, TE_MAX, last, b))
                 : b;
    }
  if (!first)
    return false;
  *lo = first;
  *span = te_canon_int (ctx, te_add (ctx, te_sub (ctx, last, first),
                                     te_int (ctx, 1)));
  return true;
}

/* The names of the arrays stage S writes, for a note, into BUF.  */
static const char *
written_names (const te_stage *s, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_tensor *t = s->stmts[i].dst;
      bool seen = false;
      for (int k = 0; k < i; k++)
        seen |= s->stmts[k].dst == t;
      if (seen || len + strlen (t->name) + 3 >= size)
        continue;
      len += snprintf (buf + len, size - len, "%s%s", len ? ", " : "",
                       t->name);
    }
  return buf;
}

/* Why a stage that may run on threads stays serial.  */
typedef enum serial_why
{
  WHY_NO_LOOP,
  WHY_RECURRENCE,
  WHY_BLAS,
  WHY_LANES,
  WHY_TOO_MANY,
  WHY_SHARED,   /* WHO */
  WHY_UNBOUNDED /* WHO */
} serial_why;

/* The note's words for WHY (and the array WHO) into BUF.  */
static const char *
why_text (serial_why why, const char *who, char *buf, size_t size)
{
  switch (why)
    {
    case WHY_NO_LOOP:
      return "it has no loop of statements";
    case WHY_RECURRENCE:
      return "it runs a recurrence";
    case WHY_BLAS:
      return "it is a matrix product the CBLAS computes";
    case WHY_LANES:
      return "it sums along its one loop in lanes";
    case WHY_TOO_MANY:
      return "it writes too many arrays";
    case WHY_SHARED:
      snprintf (buf, size, "its iterations share elements of '%s', which "
                           "it reads or sets",
                who);
      return buf;
    case WHY_UNBOUNDED:
      snprintf (buf, size, "the elements of '%s' its iterations add to "
                           "cannot be bounded",
                who);
      return buf;
    }
  return "?";
}

/* Step 4: the iterations of NLOOPS LOOPS, each extent at its largest
   over the loops outside it; NULL when one cannot be told.  */
static te_node *
iterations (te_ctx *ctx, int nloops, const te_loop *loops)
{
  te_node *n = te_int (ctx, 1);
  for (int k = 0; k < nloops; k++)
    {
      te_node *hi = te_index_upper (ctx, loops[k].extent, k, loops);
      if (!hi)
        return NULL;
      n = te_mul (ctx, n, hi);
    }
  return n;
}

/* A statement's loops, and the terms of the sums in its value so far
   (NULL once one cannot be told).  */
typedef struct work_scan
{
  te_ctx *ctx;
  int nloops;
  te_loop loops[3 * TE_MAX_LOOPS];
  te_node *sum;
} work_scan;

static void
sum_terms_fn (te_node *n, void *data)
{
  work_scan *w = data;
  if (n->op != TE_REDUCE || !w->sum)
    return;
  int nr = n->u.red.nloops;
  if (w->nloops + nr > 3 * TE_MAX_LOOPS)
    {
      w->sum = NULL;
      return;
    }
  memcpy (w->loops + w->nloops, n->u.red.loops, sizeof *w->loops * nr);
  te_node *c = iterations (w->ctx, w->nloops + nr, w->loops);
  w->sum = c ? te_add (w->ctx, w->sum, c) : NULL;
}

/* Step 4: the work of one run of stage S, or NULL.  */
static te_node *
stage_work (te_ctx *ctx, const te_stage *s)
{
  te_node *work = te_int (ctx, 0);
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *x = &s->stmts[i];
      work_scan w;
      w.ctx = ctx;
      w.nloops = s->nloops + x->ninner;
      memcpy (w.loops, s->loops, sizeof *w.loops * s->nloops);
      memcpy (w.loops + s->nloops, x->inner, sizeof *w.loops * x->ninner);
      w.sum = iterations (ctx, w.nloops, w.loops);
      if (w.sum)
        te_walk (x->value, sum_terms_fn, &w);
      if (!w.sum)
        return NULL;
      work = te_add (ctx, work, w.sum);
    }
  return te_canon_int (ctx, work);
}

/* Step 2 for stage SI of P: its parallel form, or NULL with *WHY (and
   *WHO, the array it concerns) saying why not.  */
static te_parallel *
threads_for (te_program *p, int si, serial_why *why, const char **who,
             te_tensor **apart, int *napart)
{
  int na = 0;
  *napart = 0;
  te_stage *s = &p->stages[si];
  *who = NULL;
  if (s->call || !s->nloops || !s->nstmts)
    {
      *why = WHY_NO_LOOP;
      return NULL;
    }
  if (s->reversed || s->recurrent || s->block_end)
    {
      *why = WHY_RECURRENCE;
      return NULL;
    }
  if (s->blas)
    {
      *why = WHY_BLAS;
      return NULL;
    }
  if (s->nloops == 1 && s->loops[0].lanes > 1)
    for (int i = 0; i < s->nstmts; i++)
      if (s->stmts[i].lanes_sum)
        {
          *why = WHY_LANES;
          return NULL;
        }
  te_tensor *written[MAX_WRITTEN], *partial[MAX_WRITTEN];
  te_tensor *scratch[MAX_WRITTEN], *values[MAX_WRITTEN];
  te_node *lo[MAX_WRITTEN], *span[MAX_WRITTEN];
  te_node *first[MAX_WRITTEN], *last[MAX_WRITTEN];
  int nw = 0, np = 0, ns = 0, nv = 0;
  for (int i = 0; i < s->nstmts; i++)
    {
      te_tensor *t = s->stmts[i].dst;
      bool seen = false;
      for (int k = 0; k < nw; k++)
        seen |= written[k] == t;
      if (seen)
        continue;
      if (nw == MAX_WRITTEN)
        {
          *why = WHY_TOO_MANY;
          return NULL;
        }
      written[nw++] = t;
    }
  for (int k = 0; k < nw; k++)
    {
      te_tensor *t = written[k];
      accesses q;
      bool placed = collect_accesses (s, t, &q);
      if (placed
          && te_rows_apart (p->ctx, 1, s->loops, q.n, q.index, q.nin, q.in,
                            s, NULL, NULL))
        continue;
      if (iteration_value (p, si, t))
        {
          values[nv++] = t;
          continue;
        }
      if (iteration_row (p, si, t))
        {
          scratch[ns++] = t;
          continue;
        }
      *who = t->name;
      if (!placed || q.reads || q.sets)
        {
          *why = WHY_SHARED;
          return NULL;
        }
      if (iterations_apart (p->ctx, s, t))
        {
          apart[na++] = t;
          continue;
        }
      if (!added_range (p->ctx, s, t, &lo[np], &span[np]))
        {
          *why = WHY_UNBOUNDED;
          return NULL;
        }
      if (!thread_range (p->ctx, s, t, &first[np], &last[np]))
        first[np] = last[np] = NULL;
      partial[np++] = t;
    }
  *napart = na;
  te_parallel *par = te_alloc (p->ctx, sizeof *par);
  par->npartial = np;
  par->partial = te_alloc (p->ctx, sizeof *par->partial * (np + 1));
  par->lo = te_alloc (p->ctx, sizeof *par->lo * (np + 1));
  par->span = te_alloc (p->ctx, sizeof *par->span * (np + 1));
  memcpy (par->partial, partial, sizeof *partial * np);
  memcpy (par->lo, lo, sizeof *lo * np);
  memcpy (par->span, span, sizeof *span * np);
  par->first = te_alloc (p->ctx, sizeof *par->first * (np + 1));
  par->last = te_alloc (p->ctx, sizeof *par->last * (np + 1));
  memcpy (par->first, first, sizeof *first * np);
  memcpy (par->last, last, sizeof *last * np);
  par->nscratch = ns;
  par->scratch = te_alloc (p->ctx, sizeof *par->scratch * (ns + 1));
  memcpy (par->scratch, scratch, sizeof *scratch * ns);
  par->nvalues = nv;
  par->values = te_alloc (p->ctx, sizeof *par->values * (nv + 1));
  memcpy (par->values, values, sizeof *values * nv);
  par->work = stage_work (p->ctx, s);
  return par;
}

bool
te_program_parallel (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      s->par = NULL;
      s->team = false;
      if (!asks_for_threads (p, s))
        continue;
      char names[160];
      written_names (s, names, sizeof names);
      serial_why why;
      const char *who;
      te_tensor *apart[MAX_WRITTEN];
      int napart;
      s->par = threads_for (p, si, &why, &who, apart, &napart);
      if (!s->par && why == WHY_BLAS && p->tiled)
        {
          /* plugin/emit.cc's tiled_team.  */
          s->team = true;
          te_program_note (p, "parallel: the tiled product writing %s "
                              "runs on OpenMP threads, each on a block of "
                              "its columns",
                           names);
          continue;
        }
      if (!s->par)
        {
          char buf[200];
          te_program_note (p, "parallel: the nest writing %s stays serial: "
                              "%s",
                           names, why_text (why, who, buf, sizeof buf));
          continue;
        }
      te_program_note (p, "parallel: the loop over %s of the nest writing "
                          "%s runs on OpenMP threads",
                       te_program_var_name (p, s->loops[0].var), names);
      for (int k = 0; k < s->par->npartial; k++)
        {
          te_program_note (p, "parallel: %s is summed per thread there, "
                              "then in the order of the threads",
                           s->par->partial[k]->name);
          if (s->par->first[k])
            te_program_note (p, "parallel: each thread's partial of %s "
                                "holds the elements its iterations reach",
                             s->par->partial[k]->name);
        }
      for (int k = 0; k < napart; k++)
        te_program_note (p, "parallel: the iterations there add to "
                            "elements of %s apart",
                         apart[k]->name);
      for (int k = 0; k < s->par->nscratch; k++)
        te_program_note (p, "parallel: each thread has a %s of its own "
                            "there",
                         s->par->scratch[k]->name);
      for (int k = 0; k < s->par->nvalues; k++)
        te_program_note (p, "parallel: each thread keeps its %s there",
                         s->par->values[k]->name);
      if (s->par->work)
        te_program_note (p, "parallel: one thread there where %s is below "
                            "parallel-min",
                         te_node_string (p, s->par->work));
      else
        te_program_note (p, "parallel: its work cannot be told: threads "
                            "there whatever the sizes");
    }
  return true;
}
