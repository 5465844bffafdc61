/* shrink.c -- temporaries of a gradient that live briefly get small.

   1. A temporary that lives for one iteration gets one element.

   Before:  tensor d1: size T * H
            stage 0: for (reversed) (fused) t < T, i < H:
              d1[i + H * t] += d_h[...] * (1 - h[...] * h[...]);
              for j < H: d_W[j + H * i] += h[H * t + j] * d1[i + H * t];
   After:   tensor d1: size 1
            stage 0: for (reversed) (fused) t < T, i < H:
              d1[0] = d_h[...] * (1 - h[...] * h[...]);
              for j < H: d_W[j + H * i] += h[H * t + j] * d1[0];

   A local array of a backward program whose every access is in one fused
   stage, at the element numbered by the iteration (the index lib/ad/ad.c
   gives the value and the adjoint of a reduction), holds a value that
   lives for one iteration: each element is written and read by its own
   iteration only, starting from the zero it was allocated with.  One
   element set to zero at the start of every iteration does the same;
   when the first statement that touches it sets it, or adds to it
   without reading it or a shadow that may be NULL, unguarded, that
   statement sets it and nothing else is needed.  GCC keeps it in a
   register (plugin/emit.cc puts a one-element temporary on the stack).
   Only fused stages qualify: the statements of any other backward stage
   may each get a loop nest of their own.

   2. A temporary that a recurrence's backward stage reads one step after
      writing it keeps two steps.

   Before:  tensor e_h: size H * (T + 1)
            stage 0: for (reversed) (fused) t < T, i < H:
              ... e_h[H + i + H * t] ...;          (step t + 1, read)
              for j < H: e_h[j + H * t] += ...;    (step t, written)
            stage 1: for i < H:  d_h0[i] += e_h[i];   (step 0)
   After:   tensor e_h: size 2 * H
            stage 0: for (reversed) (fused) t < T, i < H:
              if (i == H - 1) for r < H: e_h[r + H * (t % 2)] = 0;
              ... e_h[i + H * ((t + 1) % 2)] ...;
              for j < H: e_h[j + H * (t % 2)] += ...;
            stage 1: for i < H:  d_h0[i] += e_h[i];

   The adjoint of the states of an RNN (the array where the adjoints of
   the reads of an output accumulate, ad.c's "e_" arrays) is the case:
   the backward stage runs the step counter t down; iteration t reads
   the adjoint of step t + 1, complete since iteration t + 1, and adds to
   that of step t.  When every access in that stage is at C * t + R with
   one stride C and R in [0, C) for a write, [C, 2C) for a read, no
   earlier stage touches the array and later ones read step 0 only, two
   steps of C elements suffice: step s lives in slot s % 2, and slot t % 2
   (step t + 2's, read for the last time by iteration t + 1) is zeroed
   before iteration t first adds to it.  Its counter must be the stage's
   outermost, the other extents free of it.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct access_query
{
  const te_tensor *t;
  const te_node *index; /* the one index allowed */
  int n;                /* accesses seen */
  bool other;           /* an access at another index */
} access_query;

static void
access_fn (te_node *n, void *data)
{
  access_query *q = data;
  if (n->op != TE_LOAD || n->u.tensor != q->t)
    return;
  q->n++;
  if (n->args[0] != q->index)
    q->other = true;
}

/* ---- 1. one iteration ------------------------------------------------ */

/* Count in Q the accesses of Q's tensor in stage S, which must all be at
   Q's index.  */
static void
stage_accesses (const te_stage *s, access_query *q)
{
  if (te_call_passes (s, q->t, true) || te_call_passes (s, q->t, false))
    {
      q->n++;
      q->other = true;
    }
  for (int k = 0; k < s->nloops; k++)
    te_walk (s->loops[k].extent, access_fn, q);
  for (int k = 0; k < s->nstmts; k++)
    {
      const te_stmt *st = &s->stmts[k];
      if (st->dst == q->t)
        {
          q->n++;
          if (st->index != q->index)
            q->other = true;
        }
      te_walk (st->value, access_fn, q);
      te_walk (st->index, access_fn, q);
      if (st->guard)
        te_walk (st->guard, access_fn, q);
      for (int i = 0; i < st->ninner; i++)
        te_walk (st->inner[i].extent, access_fn, q);
    }
}

/* The stage of P that holds every access of local array T, at the
   element numbered by its iteration, or -1.  */
static int
home_stage (te_program *p, const te_tensor *t)
{
  int home = -1;
  if (te_sizes_read (p, t))
    return -1;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      te_node *lin = NULL, *size;
      if (st->fused && !st->call
          && !te_linearize (p->ctx, st->nloops, st->loops, &lin, &size))
        lin = NULL;
      access_query q = { t, lin, 0, false };
      stage_accesses (st, &q);
      if (!q.n)
        continue;
      if (home >= 0 || !lin || q.other)
        return -1;
      home = s;
    }
  return home;
}

static void
nullable_fn (te_node *n, void *data)
{
  if (n->op == TE_LOAD && n->u.tensor->nullable)
    *(bool *) data = true;
}

/* Does N read a shadow the caller may pass as NULL (read as zeros, which
   a statement that adds skips instead)?  */
static bool
reads_nullable (te_node *n)
{
  bool found = false;
  te_walk (n, nullable_fn, &found);
  return found;
}

/* Rewrite T's accesses in stage S to element 0, zeroed as each iteration
   starts.  */
static void
scalarize (te_program *p, te_stage *s, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  te_node *lin, *size;
  te_linearize (ctx, s->nloops, s->loops, &lin, &size);
  te_node *zero = te_int (ctx, 0);
  te_node *from = te_load (ctx, t, lin), *to = te_load (ctx, t, zero);
  int first = -1;
  for (int k = 0; k < s->nstmts; k++)
    {
      te_stmt *st = &s->stmts[k];
      bool reads = te_reads (st->value, t)
                   || (st->guard && te_reads (st->guard, t));
      if (first < 0 && (reads || st->dst == t))
        first = k;
      st->value = te_replace (ctx, st->value, from, to);
      if (st->guard)
        st->guard = te_replace (ctx, st->guard, from, to);
      st->index = st->dst == t ? zero : te_replace (ctx, st->index, from, to);
    }
  te_stmt *f = &s->stmts[first];
  t->size = te_int (ctx, 1);
  if (f->dst == t && !f->guard && !f->ninner && !te_reads (f->value, t))
    {
      if (f->op == TE_SET)
        return;
      if (!reads_nullable (f->value))
        {
          f->op = TE_SET;
          return;
        }
    }
  te_stage_add_stmt (p, s, t, zero, TE_SET, te_float (ctx, t->type, 0), NULL,
                     s->loc);
  te_stmt reset = s->stmts[s->nstmts - 1];
  memmove (&s->stmts[1], &s->stmts[0], (s->nstmts - 1) * sizeof *s->stmts);
  s->stmts[0] = reset;
}

/* ---- 1b. one row ------------------------------------------------------ */

/* A temporary whose every access is in one fused stage, each iteration
   of it touching a row of its own (te_rows_apart: attention's d[u] for
   u <= t, in a stage over b, t, h, whatever the order of the row's
   counters in memory), lives for one iteration too, a row at a time.
   It gets the row's SPAN elements, each access the index it has at the
   first iteration less the row's lowest, zeroed as each iteration
   starts.  */

#define MAX_ROW_ACCESS 64

typedef struct row_scan
{
  te_program *p;
  const te_stage *s;
  const te_stmt *st;
  const te_tensor *t;
  te_node *index[MAX_ROW_ACCESS];
  int nin[MAX_ROW_ACCESS];
  te_loop in[MAX_ROW_ACCESS][2 * TE_MAX_LOOPS];
  const te_loop *inp[MAX_ROW_ACCESS];
  int n;
  bool bad;
} row_scan;

static void
row_add (row_scan *q, te_node *index, bool write)
{
  if (q->n == MAX_ROW_ACCESS)
    {
      q->bad = true;
      return;
    }
  te_loop *loops = q->in[q->n];
  int n = te_access_loops (q->p->nvars, q->s, q->s->nloops, q->st, index,
                           write, loops);
  if (n < 0)
    {
      q->bad = true;
      return;
    }
  q->index[q->n] = te_canon_int (q->p->ctx, index);
  q->nin[q->n] = n;
  q->inp[q->n] = loops;
  q->n++;
}

static void
row_load_fn (te_node *n, void *data)
{
  row_scan *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    row_add (q, n->args[0], false);
}

/* The fused stage of P whose iterations each touch a row of T of its
   own, with the row's lowest element into *LO and its length into
   *SPAN; -1 if none.  */
static int
row_home (te_program *p, const te_tensor *t, te_node **lo, te_node **span)
{
  int home = -1;
  if (te_sizes_read (p, t))
    return -1;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      access_query any = { t, NULL, 0, false };
      stage_accesses (st, &any);
      if (!any.n)
        continue;
      if (home >= 0 || !st->fused || st->call || st->reversed
          || st->recurrent || st->nloops == 0)
        return -1;
      for (int k = 0; k < st->nloops; k++)
        if (te_reads (st->loops[k].extent, t))
          return -1;
      row_scan *q = calloc (1, sizeof *q);
      if (!q)
        return -1;
      q->p = p;
      q->s = st;
      q->t = t;
      for (int k = 0; k < st->nstmts && !q->bad; k++)
        {
          q->st = &st->stmts[k];
          if (q->st->dst == t)
            row_add (q, q->st->index, true);
          te_walk (q->st->value, row_load_fn, q);
          if (te_reads (q->st->index, t)
              || (q->st->guard && te_reads (q->st->guard, t)))
            q->bad = true;
          for (int i = 0; i < q->st->ninner; i++)
            q->bad |= te_reads (q->st->inner[i].extent, t);
        }
      bool ok = !q->bad && q->n
                && te_rows_apart (p->ctx, st->nloops, st->loops, q->n,
                                  q->index, q->nin, q->inp, st, lo, span);
      free (q);
      if (!ok)
        return -1;
      for (int k = 0; k < st->nloops; k++)
        if (te_uses_var (*lo, st->loops[k].var)
            || te_uses_var (*span, st->loops[k].var))
          return -1;
      home = s;
    }
  return home;
}

/* INDEX at the first iteration of S, less LO.  */
static te_node *
row_index (te_ctx *ctx, const te_stage *s, te_node *index, te_node *lo)
{
  for (int k = 0; k < s->nloops; k++)
    index = te_replace (ctx, index, te_var (ctx, s->loops[k].var),
                        te_int (ctx, 0));
  return te_canon_int (ctx, te_sub (ctx, index, lo));
}

/* T's accesses in stage S to their place in one row of SPAN elements,
   from LO; the row zeroed as each iteration starts.  */
static void
to_row (te_program *p, te_stage *s, te_tensor *t, te_node *lo, te_node *span)
{
  te_ctx *ctx = p->ctx;
  for (int k = 0; k < s->nstmts; k++)
    {
      te_stmt *st = &s->stmts[k];
      te_node *loads[MAX_ROW_ACCESS];
      int nl = te_loads_of (st->value, t, loads, MAX_ROW_ACCESS);
      for (int i = 0; i < nl; i++)
        st->value = te_replace (ctx, st->value, loads[i],
                                te_load (ctx, t,
                                         row_index (ctx, s, loads[i]->args[0],
                                                    lo)));
      if (st->dst == t)
        st->index = row_index (ctx, s, st->index, lo);
    }
  t->size = span;
  te_loop r = { te_program_new_var (p, "r"), span };
  te_stmt *z = te_stage_add_stmt (p, s, t, te_var (ctx, r.var), TE_SET,
                                  te_float (ctx, t->type, 0), NULL, s->loc);
  z->ninner = 1;
  z->inner = te_alloc (ctx, sizeof *z->inner);
  z->inner[0] = r;
  te_stmt reset = *z;
  memmove (&s->stmts[1], &s->stmts[0], (s->nstmts - 1) * sizeof *s->stmts);
  s->stmts[0] = reset;
}

/* ---- 2. two steps of a recurrence ----------------------------------- */

/* One access of the array being rolled: its index, where it sits, the
   loops its index may use.  */
typedef struct roll_access
{
  te_stmt *stmt;  /* its statement; NULL for a load */
  te_node *load;  /* the load, or NULL for the statement's destination */
  int stage;
  int nloops;
  te_loop loops[2 * TE_MAX_LOOPS];
} roll_access;

typedef struct roll_query
{
  const te_tensor *t;
  roll_access *items;
  int n, cap;
  bool bad; /* an access that cannot be rolled */
  int stage;
  te_stmt *stmt;
  const te_stage *s;
} roll_query;

static void
roll_push (roll_query *q, te_stmt *stmt, te_node *load)
{
  if (q->n == q->cap)
    {
      q->cap = q->cap ? 2 * q->cap : 16;
      q->items = realloc (q->items, q->cap * sizeof *q->items);
      if (!q->items)
        abort ();
    }
  roll_access *a = &q->items[q->n++];
  a->stmt = stmt;
  a->load = load;
  a->stage = q->stage;
  a->nloops = 0;
  for (int k = 0; k < q->s->nloops; k++)
    a->loops[a->nloops++] = q->s->loops[k];
  for (int k = 0; k < q->stmt->ninner; k++)
    a->loops[a->nloops++] = q->stmt->inner[k];
}

static void
roll_load_fn (te_node *n, void *data)
{
  roll_query *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    roll_push (q, NULL, n);
}

/* Every access of Q's tensor in P; Q->bad if one is in a guard, an index,
   an extent or a call, where rewriting it is not worth the trouble.  */
static void
roll_collect (te_program *p, roll_query *q)
{
  q->bad |= te_sizes_read (p, q->t);
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      q->stage = s;
      q->s = st;
      if (te_call_passes (st, q->t, true) || te_call_passes (st, q->t, false))
        q->bad = true;
      for (int k = 0; k < st->nloops; k++)
        q->bad |= te_reads (st->loops[k].extent, q->t);
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          q->stmt = x;
          q->bad |= te_reads (x->index, q->t)
                    || (x->guard && te_reads (x->guard, q->t));
          for (int i = 0; i < x->ninner; i++)
            q->bad |= te_reads (x->inner[i].extent, q->t);
          if (x->dst == q->t)
            roll_push (q, x, NULL);
          te_walk (x->value, roll_load_fn, q);
        }
    }
}

/* Does the index of access A lie in C * T + BASE + [0, C) for every
   iteration (T the counter VAR; BASE is 0 for step t, C for step t + 1,
   C * T for step T where T is an extent; an index that does not use VAR
   is at T = 0)?  Sets *REST, the index less C * T.  */
static bool
in_step (te_ctx *ctx, int nvars, const roll_access *a, int var, te_node *c,
         te_node *base, te_node **rest)
{
  te_node *index = a->load ? a->load->args[0] : a->stmt->index;
  te_node *v = te_var (ctx, var);
  te_node *i0 = te_replace (ctx, index, v, te_int (ctx, 0));
  te_node *i1 = te_replace (ctx, index, v, te_int (ctx, 1));
  te_node *i2 = te_replace (ctx, index, v, te_int (ctx, 2));
  te_node *stride = te_uses_var (index, var) ? c : te_int (ctx, 0);
  if (te_canon_int (ctx, te_sub (ctx, i1, i0)) != stride
      || te_canon_int (ctx, te_sub (ctx, i2, i1)) != stride)
    return false;
  *rest = te_canon_int (ctx, i0);
  /* The loops R may use: all but VAR's, whose extents must be free of
     it; R must use no other counter (a reduction's).  */
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = 0;
  for (int j = 0; j < a->nloops; j++)
    if (a->loops[j].var != var)
      {
        if (te_uses_var (a->loops[j].extent, var))
          return false;
        loops[n++] = a->loops[j];
      }
  te_node *probe = *rest;
  for (int j = 0; j < n; j++)
    probe = te_replace (ctx, probe, te_var (ctx, loops[j].var),
                        te_int (ctx, 0));
  for (int x = 0; x < nvars; x++)
    if (te_uses_var (probe, x))
      return false;
  if (!te_index_monotone (ctx, *rest, n, loops))
    return false;
  te_node *lo = te_index_extreme (ctx, *rest, n, loops, false);
  te_node *hi = te_index_extreme (ctx, *rest, n, loops, true);
  return te_non_negative (ctx, te_sub (ctx, lo, base))
         && te_non_negative (ctx, te_sub (ctx, te_sub (ctx, te_add (ctx, base, c),
                                                    te_int (ctx, 1)),
                                       hi));
}

/* The stride of write W of stage S to the rolled array: its index's
   growth with the counter VAR.  */
static te_node *
write_stride (te_ctx *ctx, const te_stmt *w, int var)
{
  return te_coefficient (ctx, w->index, var);
}

/* Part 2 for local array T of P; true if it was rolled, with *STEP its
   elements per step.  Stages before the recurrence's may add to step T
   (the adjoint of the final state), stages after it read step 0.  */
static bool
roll (te_program *p, te_tensor *t, te_node **step)
{
  te_ctx *ctx = p->ctx;
  roll_query q = { t, NULL, 0, 0, false, 0, NULL, NULL };
  roll_collect (p, &q);
  int rs = -1;
  for (int i = 0; i < q.n && rs < 0; i++)
    if (p->stages[q.items[i].stage].reversed
        && p->stages[q.items[i].stage].fused)
      rs = q.items[i].stage;
  bool ok = !q.bad && rs >= 0;
  te_stage *s = ok ? &p->stages[rs] : NULL;
  int var = ok ? s->loops[0].var : -1;
  te_node *c = NULL, *zero = te_int (ctx, 0), *rest;
  /* The stride: of the first write of the recurrence's stage.  */
  for (int i = 0; ok && i < q.n && !c; i++)
    if (q.items[i].stage == rs && q.items[i].stmt)
      c = write_stride (ctx, q.items[i].stmt, var);
  ok = ok && c && !te_is_const (c, 0);
  te_node *last = ok ? te_canon_int (ctx, te_mul (ctx, c, s->loops[0].extent))
                     : NULL;
  for (int i = 0; ok && i < q.n; i++)
    {
      roll_access *a = &q.items[i];
      if (a->stage < rs)
        ok = a->stmt && te_is_const (write_stride (ctx, a->stmt, var), 0)
             && in_step (ctx, p->nvars, a, var, c, last, &rest);
      else if (a->stage > rs)
        ok = !a->stmt && in_step (ctx, p->nvars, a, var, c, zero, &rest)
             && !te_uses_var (a->load->args[0], var);
      else if (a->stmt)
        ok = a->stmt->op == TE_ADD_TO && write_stride (ctx, a->stmt, var) == c
             && in_step (ctx, p->nvars, a, var, c, zero, &rest);
      else
        ok = in_step (ctx, p->nvars, a, var, c, c, &rest);
    }
  if (!ok)
    {
      free (q.items);
      return false;
    }
  /* Step s lives in slot s % 2.  */
  te_node *v = te_var (ctx, var), *two = te_int (ctx, 2);
  te_node *slot0 = te_mul (ctx, c, te_binary (ctx, TE_MOD, v, two));
  te_node *slot1 = te_mul (ctx, c, te_binary (ctx, TE_MOD,
                                              te_add (ctx, v, te_int (ctx, 1)),
                                              two));
  te_node *slot_last = te_mul (ctx, c, te_binary (ctx, TE_MOD,
                                                  s->loops[0].extent, two));
  for (int i = 0; i < q.n; i++)
    {
      roll_access *a = &q.items[i];
      if (a->stage > rs)
        continue; /* step 0 is slot 0 */
      if (a->stage < rs)
        {
          in_step (ctx, p->nvars, a, var, c, last, &rest);
          a->stmt->index = te_canon_int (
              ctx, te_add (ctx, slot_last, te_sub (ctx, rest, last)));
        }
      else if (a->stmt)
        {
          in_step (ctx, p->nvars, a, var, c, zero, &rest);
          a->stmt->index = te_canon_int (ctx, te_add (ctx, slot0, rest));
        }
      else
        {
          in_step (ctx, p->nvars, a, var, c, c, &rest);
          te_node *to = te_load (
              ctx, t, te_canon_int (ctx, te_add (ctx, slot1,
                                                 te_sub (ctx, rest, c))));
          for (int k = 0; k < s->nstmts; k++)
            s->stmts[k].value = te_replace (ctx, s->stmts[k].value, a->load,
                                            to);
        }
    }
  /* Zero slot t % 2 as iteration t starts: the other counters at their
     last values, the stage running every loop backwards.  */
  te_node *first = te_bool (ctx, true);
  for (int k = 1; k < s->nloops; k++)
    first = te_binary (
        ctx, TE_AND, first,
        te_binary (ctx, TE_EQ, te_var (ctx, s->loops[k].var),
                   te_canon_int (ctx, te_sub (ctx, s->loops[k].extent,
                                              te_int (ctx, 1)))));
  te_loop r = { te_program_new_var (p, "r"), c };
  te_stmt *z = te_stage_add_stmt (
      p, s, t, te_canon_int (ctx, te_add (ctx, slot0, te_var (ctx, r.var))),
      TE_SET, te_float (ctx, t->type, 0), first, s->loc);
  z->ninner = 1;
  z->inner = te_alloc (ctx, sizeof *z->inner);
  z->inner[0] = r;
  te_stmt zero_stmt = *z;
  memmove (&s->stmts[1], &s->stmts[0], (s->nstmts - 1) * sizeof *s->stmts);
  s->stmts[0] = zero_stmt;
  t->size = te_canon_int (ctx, te_mul (ctx, two, c));
  *step = c;
  free (q.items);
  return true;
}

bool
te_program_shrink (te_program *p, te_diag *diag)
{
  (void) diag;
  te_node *step, *lo;
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (t->kind != TE_TK_LOCAL || !t->size || te_is_const (t->size, 1))
        continue;
      int s = home_stage (p, t);
      if (s >= 0)
        {
          /* The forward's local array, if the gradient recomputes it,
             keeps its size there.  */
          t = te_program_own_copy (p, t);
          scalarize (p, &p->stages[s], t);
          te_program_note (p, "shrink: %s to one element, which lives for "
                              "one iteration of a fused loop nest",
                           t->name);
        }
      else if (te_type_is_float (t->type)
               && (s = row_home (p, t, &lo, &step)) >= 0)
        {
          t = te_program_own_copy (p, t);
          to_row (p, &p->stages[s], t, lo, step);
          te_program_note (p, "shrink: %s to one row of %s elements, which "
                              "lives for one iteration of a fused loop nest",
                           t->name, te_node_string (p, step));
        }
      else if (roll (p, t, &step))
        te_program_note (p, "shrink: %s to two steps of %s elements, which "
                            "a recurrence reads one step after writing them",
                         t->name, te_node_string (p, step));
    }
  return true;
}
