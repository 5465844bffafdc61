/* roles.c -- what a kernel does with each tensor, and the gradient ABI.

   Before:  stage 0: y[i] = a * x[i] + y[i]      (x, y pointer parameters)
   After:   x input, y in-out; shadows d_x, d_y, d_a numbered after the
            parameters in parameter order (DESIGN.md section 2).

   1. Collect, for every tensor, the statements that write it and the
      loads that read it, with the stage and statement they sit in.
   2. A tensor nobody writes is an input (or unused).  A written tensor is
      an output when it is read only after the stage that writes it (then
      it is "read back"), in-out when it is read only for its entry value:
      in an earlier stage, or in the statement that writes it at the very
      index it writes.  A local array is a temporary, read only after the
      stage that writes it.
   3. Everything else a later issue will support (a loop-carried
      dependence, an element written twice) is refused here with an
      error at the statement concerned.
   4. Number the shadows.

   Limits: the test that each element is written once only checks that
   the written index uses every loop counter of its stage.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct access
{
  int stage, stmt;
  const te_node *index;
} access;

typedef struct reads_of
{
  const te_tensor *t;
  int stage, stmt;
  access *items;
  int n, cap;
  te_ctx *ctx;
} reads_of;

static void
collect_read (te_node *n, void *data)
{
  reads_of *r = data;
  if (n->op != TE_LOAD || n->u.tensor != r->t)
    return;
  if (r->n == r->cap)
    {
      int cap = r->cap ? r->cap * 2 : 8;
      access *items = te_alloc (r->ctx, cap * sizeof *items);
      if (r->n)
        memcpy (items, r->items, r->n * sizeof *items);
      r->items = items;
      r->cap = cap;
    }
  r->items[r->n++] = (access){ r->stage, r->stmt, n->args[0] };
}

/* Every load of T in P, in program order.  */
static reads_of
find_reads (te_program *p, const te_tensor *t)
{
  reads_of r = { t, 0, 0, NULL, 0, 0, p->ctx };
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      r.stage = s;
      for (int k = 0; k < st->nloops; k++)
        {
          r.stmt = 0;
          te_walk (st->loops[k].extent, collect_read, &r);
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          r.stmt = k;
          te_walk (st->stmts[k].value, collect_read, &r);
          te_walk (st->stmts[k].index, collect_read, &r);
          if (st->stmts[k].guard)
            te_walk (st->stmts[k].guard, collect_read, &r);
        }
    }
  return r;
}

/* Does every counter of stage S appear in INDEX?  */
static bool
uses_every_counter (const te_stage *s, const te_node *index)
{
  for (int k = 0; k < s->nloops; k++)
    if (!te_uses_var (index, s->loops[k].var))
      return false;
  return true;
}


/* Is INDEX the index of a statement of stage S, other than statement
   SKIP, that writes T?  Returns that statement's number or -1.  */
static int
writer_at (const te_stage *s, const te_tensor *t, const te_node *index)
{
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t && s->stmts[k].index == index)
      return k;
  return -1;
}

/* Several statements of one stage may write T only where they write
   distinct constant elements outside any loop (y[0] = ...; y[1] = ...).  */
static bool
distinct_constant_writes (const te_stage *s, const te_tensor *t)
{
  if (s->nloops)
    return false;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t
        && (s->stmts[k].index->op != TE_CONST
            || writer_at (s, t, s->stmts[k].index) != k))
      return false;
  return true;
}


/* Is canonical polynomial N positive: a positive constant term and no
   negative coefficient (parameters are sizes, not negative)?  */
static bool
positive (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
      return n->u.i > 0;
    case TE_ADD:
      return (positive (n->args[0]) && !te_poly_negative (n->args[1]))
             || (positive (n->args[1]) && !te_poly_negative (n->args[0]));
    default:
      return false;
    }
}


static bool
monotone (te_ctx *ctx, const te_stage *s, te_node *index)
{
  return te_index_monotone (ctx, index, s->nloops, s->loops);
}

/* Does a read R of T in statement READER of stage S, whose statement ST
   writes T[W], only see elements that earlier iterations wrote?  True if
   for some loop of S, with the loops outside it fixed, every element read
   is below every element written in that iteration, W growing with that
   loop's counter (or above, W falling: y[i] = y[i+1] * x[i] counting
   down; *DOWN says which); then S is a recurrence and its gradient runs
   its iterations backwards.  */
static bool
reads_earlier_iterations (te_program *p, const te_stage *s, const te_stmt *st,
                          const te_stmt *reader, const te_node *r, bool *down)
{
  te_ctx *ctx = p->ctx;
  te_loop rloops[2 * TE_MAX_LOOPS];
  /* The reduction loops R sits in, for its largest value.  */
  int nr = te_read_loops (p->nvars, s, s->nloops, reader->value, r, rloops);
  if (nr < 0 || nr > TE_MAX_LOOPS)
    return false;
  *down = false;
  for (int k = s->nloops - 1; k >= 0; k--)
    {
      int ninner = s->nloops - 1 - k;
      te_loop inner[2 * TE_MAX_LOOPS];
      memcpy (inner, s->loops + k + 1, ninner * sizeof *inner);
      te_node *wmin = te_index_extreme (ctx, st->index, ninner, inner, false);
      if (!te_index_monotone (ctx, st->index, ninner, inner))
        continue;
      memcpy (inner + ninner, rloops, nr * sizeof *inner);
      te_node *rlo, *rhi, *wlo, *whi;
      if (!te_read_range (ctx, reader->value, reader->guard, st->dst, r,
                          ninner + nr, inner, &rlo, &rhi))
        continue;
      if (positive (te_canon_int (ctx, te_sub (ctx, wmin, rhi))))
        return true;
      /* Counting down: every element read above every element written,
         W falling with the counter.  */
      if (te_index_direction (ctx, st->index, s->loops[k].var) < 0
          && te_index_range (ctx, st->index, ninner, inner, &wlo, &whi)
          && positive (te_canon_int (ctx, te_sub (ctx, rlo, whi))))
        {
          *down = true;
          return true;
        }
    }
  return false;
}

/* Is every element that read R (in statement READER of stage S) can see
   written by the kernel: not below the lowest element the first writer
   of T, in stage FIRST, writes (DOWN, for a recurrence counting down: not
   above the highest)?  Else the recurrence starts from T's entry value,
   whose adjoint an output does not return.  */
static bool
written_before (te_program *p, const te_tensor *t, int first,
                const te_stage *s, const te_stmt *reader, const te_node *r,
                bool down)
{
  te_ctx *ctx = p->ctx;
  const te_stage *fs = &p->stages[first];
  const te_stmt *w = NULL;
  for (int k = 0; k < fs->nstmts && !w; k++)
    if (fs->stmts[k].dst == t)
      w = &fs->stmts[k];
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, s, 0, reader->value, r, loops);
  te_node *rlo, *rhi, *wlo, *whi;
  if (n < 0
      || !te_read_range (ctx, reader->value, reader->guard, t, r, n, loops,
                         &rlo, &rhi)
      || !te_index_range (ctx, w->index, fs->nloops, fs->loops, &wlo, &whi))
    return false;
  if (!down)
    return te_index_monotone (ctx, r, n, loops)
           && te_index_monotone (ctx, w->index, fs->nloops, fs->loops)
           && te_non_negative (ctx, te_sub (ctx, rlo, wlo));
  return te_non_negative (ctx, te_sub (ctx, whi, rhi));
}

/* Are the writes of stage B to T all above those of stage A?  */
static bool
above (te_program *p, const te_stage *a, const te_stmt *wa,
       const te_stage *b, const te_stmt *wb)
{
  te_ctx *ctx = p->ctx;
  te_node *amin, *amax, *bmin, *bmax;
  if (!te_index_range (ctx, wa->index, a->nloops, a->loops, &amin, &amax)
      || !te_index_range (ctx, wb->index, b->nloops, b->loops, &bmin, &bmax))
    return false;
  te_node *gap = te_canon_int (ctx, te_sub (ctx, bmin, amax));
  /* Where both run, max (E, 0) of an extent E is E: a remainder loop
     starts where a loop stepped by hand left its counter.  */
  return positive (gap)
         || te_non_negative_where_run (
             ctx, te_canon_int (ctx, te_sub (ctx, gap, te_int (ctx, 1))), a,
             b);
}

/* The rows of C a counter with coefficient D steps over: M with D - C * M
   free of multiples of C (T of rows of T, T * T for a row of T x T, also
   T + 1: a range starting one past the counter, u from t + 1 in row t;
   m + 1 of a tape's rows of m + 1; of constants, the quotient: 6 steps
   one row of 5, u from t + 1 in row t of rows of 5), NULL when there is
   no such M.  */
static te_node *
rows_stepped (te_ctx *ctx, te_node *d, te_node *c)
{
  if (d->op == TE_CONST && c->op == TE_CONST && c->u.i > 1)
    return d->u.i >= c->u.i ? te_int (ctx, d->u.i / c->u.i) : NULL;
  te_node *m = te_canon_divide (ctx, d, c, NULL);
  return m && m != te_int (ctx, 0) ? m : NULL;
}

/* An access of stage S at INDEX over NLOOPS LOOPS (S's loops first): a
   write, or a read with the reductions around it (te_read_loops).  */
typedef struct
{
  const te_stage *s;
  te_node *index;
  int nloops;
  const te_loop *loops;
} ranged;

static ranged
write_access (const te_stage *s, const te_stmt *w)
{
  return (ranged) { s, w->index, s->nloops, s->loops };
}

/* The row of an access and its extremes in it (rows_of).  */
typedef struct
{
  te_node *q, *lo, *hi;
  te_node *r; /* the column: the index less C * Q */
  int nq;
} row_part;

/* Access X as C * Q + R with R in [0, C): Q the sum of the counters
   whose coefficient has a part that is a multiple of C, each times its
   multiple (rows of C indexed by two loops, (b * T + t) * C), R what is
   left, its range in [0, C) where the loops of X's stage and OTHER run.
   Sets *LO and *HI, R's extremes; false if X's index is no such sum.
   ROW gets Q, canonical, its counters those of the first ROW->NQ loops
   of X (-1 if a later loop's counter is in Q: no ROW->LO, ROW->HI),
   the column R, and ROW->LO, ROW->HI
   R's extremes in the row Q names: over X's later loops only, in terms
   of the counters of the first ROW->NQ (u <= t in row t).  */
static bool
rows_of (te_program *p, const ranged *x, te_node *c, const te_stage *other,
         te_node **lo, te_node **hi, row_part *row)
{
  te_ctx *ctx = p->ctx;
  const te_stage *s = x->s;
  int n = x->nloops;
  const te_loop *loops = x->loops;
  te_node *q = te_int (ctx, 0);
  for (int k = 0; k < n; k++)
    {
      te_node *m = rows_stepped (
          ctx, te_coefficient (ctx, x->index, loops[k].var), c);
      if (m && !te_uses_var (m, loops[k].var))
        q = te_add (ctx, q, te_mul (ctx, m, te_var (ctx, loops[k].var)));
    }
  te_node *r = te_canon_int (ctx, te_sub (ctx, x->index, te_mul (ctx, c, q)));
  /* Whole rows in what is left go to Q (a tape's row t + 1 at
     R (t + 1) + j).  */
  for (int i = 0; i < 4 && te_index_monotone (ctx, r, n, loops); i++)
    {
      te_node *low = te_index_extreme (ctx, r, n, loops, false);
      if (!te_non_negative_where_run (
              ctx, te_canon_int (ctx, te_sub (ctx, low, c)), s, other))
        break;
      r = te_canon_int (ctx, te_sub (ctx, r, c));
      q = te_add (ctx, q, te_int (ctx, 1));
    }
  /* R may fall with a counter (a row's recurrence counting down,
     y[r*n + n - 2 - i]): its range, counter by counter.  */
  if (!te_index_range (ctx, r, n, loops, lo, hi))
    return false;
  te_node *top = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, c,
                                                         te_int (ctx, 1)),
                                            *hi));
  if (!((!te_poly_negative (*lo)
         || te_non_negative_where_run (ctx, *lo, s, other))
        && te_non_negative_where_run (ctx, top, s, other)))
    return false;
  row->q = te_canon_int (ctx, q);
  row->r = r;
  row->nq = 0;
  for (int k = 0; k < n; k++)
    if (te_uses_var (row->q, loops[k].var))
      {
        if (row->nq < k)
          {
            /* Rows named by an inner counter (the pair i of 2 i and
               2 i + 1): no rows to compare by, but R's range holds.  */
            row->nq = -1;
            return true;
          }
        row->nq = k + 1;
      }
  return te_index_range (ctx, r, n - row->nq, loops + row->nq, &row->lo,
                         &row->hi);
}

/* Do accesses A and B share the loops over the rows RA and RB name
   (their first NQ, loops of both stages), RB's row that of RA with B's
   counters named as A's, each value of the counters naming a row of its
   own, so that within one row A's and B's R can be compared?  Then RB
   in A's counters.  */
static bool
same_rows (te_program *p, const ranged *a, const row_part *ra,
           const ranged *b, row_part *rb)
{
  te_ctx *ctx = p->ctx;
  int nq = ra->nq;
  if (nq <= 0 || rb->nq != nq || nq > a->s->nloops || nq > b->s->nloops
      || te_shared_loops (a->s, b->s) < nq)
    return false;
  rb->q = te_canon_int (ctx, te_rename_counters (ctx, rb->q, nq, b->loops,
                                                 a->loops));
  if (rb->q != ra->q)
    return false;
  rb->lo = te_canon_int (ctx, te_rename_counters (ctx, rb->lo, nq, b->loops,
                                                  a->loops));
  rb->hi = te_canon_int (ctx, te_rename_counters (ctx, rb->hi, nq, b->loops,
                                                  a->loops));
  int none = 0;
  const te_loop *no_loops = NULL;
  te_node *q = ra->q;
  return te_rows_apart (ctx, nq, a->loops, 1, &q, &none, &no_loops, a->s,
                        NULL, NULL);
}

/* Do accesses A and B touch different columns of rows of length C:
   both C * Q + R with R in [0, C), their R in disjoint ranges (a seed
   y[i*m] and a recurrence y[i*m + 1 + j]), or in disjoint ranges within
   each row, A and B in the same loops over the rows (a causal row's
   u <= t and its tail zeroed from t + 1)?  */
static bool different_columns_in (te_program *p, const ranged *a,
                                  const ranged *b, int depth);

static bool
columns_apart (te_program *p, const ranged *a, const ranged *b, te_node *c,
               int depth)
{
  te_ctx *ctx = p->ctx;
  te_node *alo, *ahi, *blo, *bhi;
  row_part ra, rb;
  if (!rows_of (p, a, c, b->s, &alo, &ahi, &ra)
      || !rows_of (p, b, c, a->s, &blo, &bhi, &rb))
    return false;
  if (positive (te_canon_int (ctx, te_sub (ctx, blo, ahi)))
      || positive (te_canon_int (ctx, te_sub (ctx, alo, bhi))))
    return true;
  if (!same_rows (p, a, &ra, b, &rb))
    return false;
  if (positive (te_canon_int (ctx, te_sub (ctx, rb.lo, ra.hi)))
      || positive (te_canon_int (ctx, te_sub (ctx, ra.lo, rb.hi))))
    return true;
  /* Or, within the same row, columns that are apart as columns of
     columns: the pairs 2 i and 2 i + 1 of a row t * d (rotary
     embeddings, complex numbers), once.  */
  ranged ca = { a->s, ra.r, a->nloops, a->loops };
  ranged cb = { b->s, rb.r, b->nloops, b->loops };
  return depth == 0 && different_columns_in (p, &ca, &cb, depth + 1);
}

/* columns_apart for a row length C that is the step of a counter of A
   or of B (DEPTH: columns_apart's nesting).  */
static bool
different_columns_in (te_program *p, const ranged *a, const ranged *b,
                      int depth)
{
  for (int side = 0; side < 2; side++)
    {
      const ranged *x = side ? b : a;
      for (int k = 0; k < x->nloops; k++)
        {
          te_node *c = te_coefficient (p->ctx, x->index, x->loops[k].var);
          if (!(c->op == TE_CONST && c->u.i < 2)
              && columns_apart (p, a, b, c, depth))
            return true;
        }
    }
  return false;
}

static bool
different_columns (te_program *p, const ranged *a, const ranged *b)
{
  return different_columns_in (p, a, b, 0);
}


/* Do the writes of stage A (earlier) and B touch provably disjoint
   elements, B's all above or all below A's, or different columns?  */
static bool
disjoint (te_program *p, const te_stage *a, const te_stmt *wa,
          const te_stage *b, const te_stmt *wb)
{
  ranged xa = write_access (a, wa), xb = write_access (b, wb);
  return above (p, a, wa, b, wb) || above (p, b, wb, a, wa)
         || different_columns (p, &xa, &xb);
}

/* T, which the call of stage CW writes: the call must be its only
   writer and come before every read; an output of the kernel must not
   be read back (its adjoint would have to be kept apart from its
   shadow, in an array whose size the call does not tell).  */
static bool
call_output_role (te_program *p, te_tensor *t, int cw, te_diag *diag)
{
  const te_stage *c = &p->stages[cw];
  for (int s = 0; s < p->nstages; s++)
    if (s != cw && te_stage_writes (&p->stages[s], t))
      {
        te_diag_set (diag, TE_DIAG_USER, p->stages[s].loc,
                     "'%s' is written by the call to '%s' and again here; "
                     "not supported yet",
                     t->name, c->call->name);
        te_diag_note (diag, "write the result of one of them to another "
                            "array");
        return false;
      }
  reads_of r = find_reads (p, t);
  for (int s = 0; s < p->nstages; s++)
    {
      bool read = te_call_passes (&p->stages[s], t, true);
      te_loc loc = p->stages[s].loc;
      for (int i = 0; i < r.n; i++)
        if (r.items[i].stage == s)
          {
            /* At the statement that reads it.  */
            if (!read && r.items[i].stmt < p->stages[s].nstmts)
              loc = p->stages[s].stmts[r.items[i].stmt].loc;
            read = true;
          }
      if (!read)
        continue;
      if (s <= cw)
        return te_diag_set (diag, TE_DIAG_USER, loc,
                            "'%s' is read before the call to '%s' writes "
                            "it; not supported yet",
                            t->name, c->call->name);
      if (t->kind != TE_TK_LOCAL)
        {
          te_diag_set (diag, TE_DIAG_USER, loc,
                       "'%s', which the call to '%s' writes, is read "
                       "again; not supported yet",
                       t->name, c->call->name);
          te_diag_note (diag, "pass a local array to '%s' and copy it "
                              "into '%s' in a loop of its own",
                        c->call->name, t->name);
          return false;
        }
    }
  t->role = t->kind == TE_TK_LOCAL ? TE_ROLE_TEMP : TE_ROLE_OUTPUT;
  return true;
}

/* Are the elements that read R (statement ST of stage S) can see all
   outside those that statement W of the later stage WS writes: below or
   above them, or in other columns of rows (different_columns)?  */
static bool
read_apart (te_program *p, const te_stage *s, const te_stmt *st,
            const te_node *r, const te_stage *ws, const te_stmt *w)
{
  te_ctx *ctx = p->ctx;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, s, 0, st->value, r, loops);
  if (n < 0 || !te_index_monotone (ctx, r, n, loops)
      || !monotone (ctx, ws, w->index))
    return false;
  te_node *rmin = te_index_extreme (ctx, (te_node *) r, n, loops, false);
  te_node *rmax = te_index_extreme (ctx, (te_node *) r, n, loops, true);
  te_node *wmin = te_index_extreme (ctx, w->index, ws->nloops, ws->loops,
                                    false);
  te_node *wmax = te_index_extreme (ctx, w->index, ws->nloops, ws->loops,
                                    true);
  if (positive (te_canon_int (ctx, te_sub (ctx, wmin, rmax)))
      || positive (te_canon_int (ctx, te_sub (ctx, rmin, wmax))))
    return true;
  /* Or apart within each row, in one loop over the rows.  */
  ranged xr = { s, (te_node *) r, n, loops }, xw = write_access (ws, w);
  return different_columns (p, &xr, &xw);
}

/* A read R (statement ST of stage S) of T that an earlier stage WS of the
   same nest writes with W: the read, at an iteration of the loops they
   share, must see only elements written at that iteration or before, as
   it does in the source, where the two inner loops alternate.  Sure when
   W writes T in the order of its iterations (its index less its first
   element is their row-major number) and R reads no element above the
   last W writes at the same shared iteration.  */

/* Does INDEX, written by stage S, grow strictly from each iteration of S
   to the next: with every loop's inner loops at their last iteration,
   the next value of its counter (inner loops at their first) writes
   above?  (A tape's rows, h[r * (m + 1) + j + 1], are written so, with
   gaps; te_writes_in_order wants no gap.)  Where stage OTHER runs too
   (its loops' extents at least one: a seed c[n * t] of rows of n that a
   loop over j < n reads).  */
static bool
writes_rising (te_ctx *ctx, const te_stage *s, te_node *index,
               const te_stage *other)
{
  for (int k = 0; k < s->nloops; k++)
    {
      int ninner = s->nloops - 1 - k;
      const te_loop *inner = s->loops + k + 1;
      if (!te_index_monotone (ctx, index, ninner, inner))
        return false;
      te_node *v = te_var (ctx, s->loops[k].var);
      te_node *next = te_replace (ctx, index, v,
                                  te_add (ctx, v, te_int (ctx, 1)));
      te_node *hi = te_index_extreme (ctx, index, ninner, inner, true);
      te_node *lo = te_index_extreme (ctx, te_canon_int (ctx, next), ninner,
                                      inner, false);
      te_node *gap = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, lo, hi),
                                                te_int (ctx, 1)));
      /* At the counters' values that make it smallest (a causal row's
         gap T - t - 1 at t = T - 1).  */
      te_node *glo, *ghi;
      if (!te_non_negative_where_run (ctx, gap, s, other)
          && !(te_index_range (ctx, gap, k + 1, s->loops, &glo, &ghi)
               && te_non_negative_where_run (ctx, glo, s, other)))
        return false;
    }
  return true;
}

/* Does INDEX, written by stage S, write in each iteration of its first
   SHARED loops only above what the earlier iterations wrote, in any
   order within the iteration (a suffix recurrence c[r + n - 2 - j] in
   row r), where stage OTHER runs too?  */
static bool
rows_rising (te_ctx *ctx, const te_stage *s, te_node *index, int shared,
             const te_stage *other)
{
  for (int k = 0; k < shared; k++)
    {
      int ninner = s->nloops - 1 - k;
      const te_loop *inner = s->loops + k + 1;
      te_node *v = te_var (ctx, s->loops[k].var);
      te_node *next = te_canon_int (
          ctx, te_replace (ctx, index, v, te_add (ctx, v, te_int (ctx, 1))));
      te_node *lo, *hi, *nlo, *nhi, *glo, *ghi;
      if (!te_index_range (ctx, index, ninner, inner, &lo, &hi)
          || !te_index_range (ctx, next, ninner, inner, &nlo, &nhi))
        return false;
      te_node *gap = te_canon_int (
          ctx, te_sub (ctx, te_sub (ctx, nlo, hi), te_int (ctx, 1)));
      if (!te_non_negative_where_run (ctx, gap, s, other)
          && !(te_index_range (ctx, gap, k + 1, s->loops, &glo, &ghi)
               && te_non_negative_where_run (ctx, glo, s, other)))
        return false;
    }
  return true;
}

/* Does W (of stage WS, which shares its SHARED outer loops with the stage
   that reads) write each element in one iteration of those loops only:
   does each such loop's next iteration write wholly above (or wholly
   below) what its inner loops wrote in this one?  Then a read of the
   element W wrote in this iteration sees that write in the TE program
   too, where every iteration of W runs before the read.  When that holds
   only for some sizes, by an expression of the integer parameters (rows
   of V entries Vp apart: Vp - V >= 0, which a padded softmax does not
   state), the gradient requires it (te_program_require).  */
static bool
written_once_per_row (te_program *p, const te_stage *ws, const te_stmt *w,
                      int shared)
{
  te_ctx *ctx = p->ctx;
  int nin = ws->nloops - shared;
  const te_loop *in = ws->loops + shared;
  te_node *index = w->index;
  if (te_rows_apart (ctx, shared, ws->loops, 1, &index, &nin, &in, ws, NULL,
                     NULL))
    return true;
  te_node *need[TE_MAX_LOOPS];
  int needk[TE_MAX_LOOPS], nneed = 0;
  /* Rows expand.c made per iteration of the outer loops never meet.  */
  for (int k = w->dst->expanded; k < shared; k++)
    {
      int ninner = ws->nloops - 1 - k;
      const te_loop *inner = ws->loops + k + 1;
      te_node *v = te_var (ctx, ws->loops[k].var);
      int dir = te_index_direction (ctx, index, ws->loops[k].var);
      te_node *x = dir < 0 ? te_canon_int (ctx, te_neg (ctx, index)) : index;
      if (!dir || !te_index_monotone (ctx, x, ninner, inner))
        return false;
      te_node *next = te_canon_int (
          ctx, te_replace (ctx, x, v, te_add (ctx, v, te_int (ctx, 1))));
      te_node *hi = te_index_extreme (ctx, x, ninner, inner, true);
      te_node *lo = te_index_extreme (ctx, next, ninner, inner, false);
      te_node *gap = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, lo, hi),
                                                te_int (ctx, 1)));
      if (te_non_negative_where_run (ctx, gap, ws, ws))
        continue;
      for (int j = 0; j < ws->nloops; j++)
        if (te_uses_var (gap, ws->loops[j].var))
          return false;
      if (!te_param_poly (gap))
        return false;
      needk[nneed] = k;
      need[nneed++] = gap;
    }
  for (int i = 0; i < nneed; i++)
    te_program_require (p, need[i], w->loc,
                        "each iteration of the loop over '%s' writes "
                        "elements of '%s' that no other iteration writes",
                        te_node_string (p, te_var (ctx,
                                                   ws->loops[needk[i]].var)),
                        w->dst->name);
  return true;
}

/* Is the read R, by an iteration of the NW loops TO, of the element the
   write INDEX makes at the same point of the NW loops FROM, where each
   loop of TO runs no further than its loop of FROM (a causal row read to
   u <= t of a row written to u < T)?  */
static bool
inside_write (te_ctx *ctx, int nw, const te_loop *from, te_node *index,
              const te_loop *to, const te_node *r)
{
  if (te_canon_int (ctx, te_rename_counters (ctx, index, nw, from, to))
      != te_canon_int (ctx, (te_node *) r))
    return false;
  for (int k = 0; k < nw; k++)
    if (!te_loop_within (ctx, nw, to, from, k))
      return false;
  return true;
}

/* Or is R that element where one loop K of TO runs further than FROM's,
   every read of T in VALUE sitting behind the test that K's counter is
   within FROM's extent (attention's p[u] = u <= t ? p[u] / z : 0 over
   u < T reads the p[u] = e of u <= t)?  */
static bool
guarded_inside (te_ctx *ctx, int nw, const te_loop *from, te_node *index,
                const te_loop *to, const te_node *r, const te_node *value,
                const te_tensor *t)
{
  if (te_canon_int (ctx, te_rename_counters (ctx, index, nw, from, to))
      != te_canon_int (ctx, (te_node *) r))
    return false;
  int k = -1;
  for (int j = 0; j < nw; j++)
    if (!te_loop_within (ctx, nw, to, from, j))
      {
        if (k >= 0)
          return false;
        k = j;
      }
  if (k < 0)
    return false;
  te_node *e = te_canon_int (ctx, te_rename_counters (ctx, from[k].extent,
                                                      nw, from, to));
  return te_loads_below (ctx, value, t, te_var (ctx, to[k].var), e);
}

typedef struct gather_atom
{
  te_node *found; /* the load of an integer array, or its conversion */
  te_node *load;
  int count;
} gather_atom;

static void
find_gather (te_node *n, void *data)
{
  gather_atom *g = data;
  te_node *x = n->op == TE_CAST ? n->args[0] : n;
  if (x->op != TE_LOAD || te_type_is_float (x->type)
      || x->u.tensor->kind != TE_TK_PARAM)
    return;
  if (x != g->load)
    g->count++;
  if (x != g->load || n != x)
    g->found = n; /* the conversion around it, when there is one */
  g->load = x;
}

/* Or does R, read by stage S at the row base a write W of stage WS (the
   only writer before S, one loop inside the loops they share) writes
   plus one element picked by an integer array (a loss's p[n*V +
   target[n]] in the row loop of the softmax that wrote p), read that
   row?  It does when the picked element lies in the row, as the kernel
   means: one beyond would be an element of an output that a later row
   writes, not yet written, whose value no kernel uses.  No stage before
   W reads T (its entry values are not the kernel's).  */
static bool
gather_in_row (te_program *p, const te_tensor *t, const te_stage *s,
               const te_node *r, int wsi, const te_stmt *w, int shared)
{
  te_ctx *ctx = p->ctx;
  const te_stage *ws = &p->stages[wsi];
  if (ws->nloops != shared + 1 || t->kind != TE_TK_PARAM
      || w->op != TE_SET || w->guard)
    return false;
  for (int k = 0; k < wsi; k++)
    for (int j = 0; j < p->stages[k].nstmts; j++)
      if (te_stmt_reads (&p->stages[k].stmts[j], t))
        return false;
  for (int k = 0; k < ws->nstmts; k++)
    if (te_reads (ws->stmts[k].value, t)
        || (ws->stmts[k].dst == t && &ws->stmts[k] != w))
      return false;
  te_node *rw = te_canon_int (ctx, te_rename_counters (ctx, (te_node *) r,
                                                      shared, s->loops,
                                                      ws->loops));
  gather_atom g = { NULL, NULL, 0 };
  te_walk (rw, find_gather, &g);
  if (g.count != 1)
    return false;
  /* The element W writes at the picked place of the row ...  */
  te_node *at = te_canon_int (
      ctx, te_replace (ctx, rw, g.found, te_var (ctx, ws->loops[shared].var)));
  if (at == te_canon_int (ctx, w->index))
    return true;
  /* ... or W writes only inside the row, [base, base + C) with C the
     row's stride (a padded row's zeros after its V entries), which its
     later iterations leave.  */
  if (shared != 1)
    return false;
  te_node *base = te_canon_int (ctx, te_replace (ctx, rw, g.found,
                                                 te_int (ctx, 0)));
  te_node *v = te_var (ctx, ws->loops[0].var);
  te_node *c = te_canon_int (
      ctx, te_sub (ctx, te_replace (ctx, base, v,
                                    te_add (ctx, v, te_int (ctx, 1))),
                   base));
  te_node *lo, *hi;
  if (!te_index_range (ctx, w->index, 1, ws->loops + 1, &lo, &hi))
    return false;
  return te_non_negative_where_run (
             ctx, te_canon_int (ctx, te_sub (ctx, lo, base)), ws, s)
         && te_non_negative_where_run (
             ctx,
             te_canon_int (ctx, te_sub (ctx, te_sub (ctx, te_add (ctx, base, c),
                                                     te_int (ctx, 1)),
                                        hi)),
             ws, s)
         && te_non_negative (ctx, c);
}

static bool
read_written_before (te_program *p, const te_stage *s, const te_stmt *st,
                     const te_node *r, const te_stage *ws, const te_stmt *w)
{
  te_ctx *ctx = p->ctx;
  int shared = te_shared_loops (s, ws);
  if (shared == 0)
    return true;
  if (gather_in_row (p, w->dst, s, r, (int) (ws - p->stages), w, shared))
    return true;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, s, shared, st->value, r, loops);
  /* The very element W wrote in this iteration of the shared loops, at
     the same point of inner loops of the same extents (p[i] /= z after
     p[i] = exp (x[i] - m) over one row).  */
  te_loop used[2 * TE_MAX_LOOPS]; /* the loops R's index uses */
  int nu = 0;
  for (int k = 0; k < n; k++)
    if (te_uses_var (r, loops[k].var))
      used[nu++] = loops[k];
  if (n >= 0 && nu == ws->nloops - shared)
    {
      te_loop from[2 * TE_MAX_LOOPS], to[2 * TE_MAX_LOOPS];
      memcpy (from, ws->loops, ws->nloops * sizeof *from);
      memcpy (to, s->loops, shared * sizeof *to);
      memcpy (to + shared, used, nu * sizeof *to);
      if ((te_same_element (ctx, ws->nloops, from, w->index, w->index,
                            shared + nu, to, (te_node *) r)
           || inside_write (ctx, ws->nloops, from, w->index, to, r)
           || guarded_inside (ctx, ws->nloops, from, w->index, to, r,
                              st->value, w->dst))
          && written_once_per_row (p, ws, w, shared))
        return true;
    }
  /* R's largest element, also where it falls with a counter (a suffix
     recurrence c[j] = a c[j + 1] + g[j] counting down).  */
  te_node *rmin, *rmax, *wmin, *wmax;
  bool ordered = te_writes_in_order (ctx, ws, w->index)
                 || writes_rising (ctx, ws, w->index, s);
  if (!(ordered || rows_rising (ctx, ws, w->index, shared, s)) || n < 0
      || !te_index_range (ctx, (te_node *) r, n, loops, &rmin, &rmax))
    return false;
  if (ordered)
    wmax = te_index_extreme (ctx, w->index, ws->nloops - shared,
                             ws->loops + shared, true);
  else if (!te_index_range (ctx, w->index, ws->nloops - shared,
                            ws->loops + shared, &wmin, &wmax))
    return false;
  rmax = te_rename_counters (ctx, rmax, shared, s->loops, ws->loops);
  if (te_non_negative (ctx, te_sub (ctx, wmax, rmax)))
    return true;
  /* Or W writes, in the next iteration of the one loop they share and
     after (W rising), only above what R reads: a tape's next row.  */
  if (shared != 1
      || !(writes_rising (ctx, ws, w->index, s)
           || rows_rising (ctx, ws, w->index, 1, s)))
    return false;
  te_node *v = te_var (ctx, ws->loops[0].var);
  te_node *next = te_canon_int (ctx, te_replace (ctx, w->index, v,
                                                 te_add (ctx, v,
                                                         te_int (ctx, 1))));
  te_node *wnext, *wtop;
  if (!te_index_range (ctx, next, ws->nloops - 1, ws->loops + 1, &wnext,
                       &wtop))
    return false;
  te_node *gap = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, wnext, rmax),
                                            te_int (ctx, 1)));
  return te_non_negative_where_run (ctx, gap, ws, s);
}

/* Or do the loops of R's stage S and of the later stage WS (whose
   statement W writes what R reads) run inside the same P outermost loops
   of the source, and does R, at an iteration of them, read only elements
   that W wrote at earlier iterations or never writes, W writing higher at
   every later iteration (a state's tape: a GRU's gate loop reads row t,
   its update loop writes row t + 1)?  Then the stages from S to WS run
   iteration by iteration of the P loops, as the source does (blocks.c);
   P, or 0 if not.  */
static int
block_read (te_program *p, int s, const te_stmt *st, const te_node *r,
            int ws, const te_stmt *w)
{
  te_ctx *ctx = p->ctx;
  const te_stage *rs = &p->stages[s], *wst = &p->stages[ws];
  int shared = te_shared_loops (rs, wst);
  if (shared == 0 || rs->call || wst->call || w->guard)
    return 0;
  for (int k = s + 1; k < ws; k++)
    if (p->stages[k].call
        || (!te_stage_empty (&p->stages[k])
            && te_shared_loops (rs, &p->stages[k]) < shared))
      return 0;
  if (!writes_rising (ctx, wst, w->index, wst))
    return 0;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, rs, shared, st->value, r, loops);
  te_node *rmin, *rmax;
  if (n < 0 || !te_read_range (ctx, st->value, st->guard, w->dst, r, n, loops,
                               &rmin, &rmax))
    return 0;
  te_node *wmin = te_index_extreme (ctx, w->index, wst->nloops - shared,
                                    wst->loops + shared, false);
  wmin = te_rename_counters (ctx, wmin, shared, wst->loops, rs->loops);
  te_node *gap = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, wmin, rmax),
                                            te_int (ctx, 1)));
  return te_non_negative_where_run (ctx, gap, rs, rs) ? shared : 0;
}

/* A read of T at stage S, after a first writer: no later stage may write
   what it can see.  In the TE program the read comes first and sees the
   older value; in the source it may come after (stages of one loop nest
   run their iterations interleaved: the later inner loop of iteration
   t - 1 before the earlier one of iteration t), and then the gradient
   would be of another function.  */
static bool
no_later_writer (te_program *p, const te_tensor *t, int s, const te_stmt *st,
                 const te_node *r, te_diag *diag)
{
  for (int ws = 0; ws < s; ws++)
    for (int k = 0; k < p->stages[ws].nstmts; k++)
      {
        const te_stmt *w = &p->stages[ws].stmts[k];
        if (w->dst != t || p->stages[ws].nest != p->stages[s].nest
            || read_apart (p, &p->stages[s], st, r, &p->stages[ws], w)
            || read_written_before (p, &p->stages[s], st, r, &p->stages[ws],
                                    w))
          continue;
        te_diag_set (diag, TE_DIAG_USER, st->loc,
                     "'%s' is read here where an earlier loop of the same "
                     "nest may not have written it yet; not supported yet",
                     t->name);
        te_diag_note (diag, "the gradient runs each inner loop of the nest "
                            "to its end before the next; read only what "
                            "the earlier loop wrote in this iteration of "
                            "the outer loop or before");
        return false;
      }
  for (int ws = s + 1; ws < p->nstages; ws++)
    for (int k = 0; k < p->stages[ws].nstmts; k++)
      {
        const te_stmt *w = &p->stages[ws].stmts[k];
        if (w->dst != t || read_apart (p, &p->stages[s], st, r,
                                       &p->stages[ws], w))
          continue;
        if (p->stages[ws].nest == p->stages[s].nest
            && block_read (p, s, st, r, ws, w))
          {
            if (p->stages[s].block_end < ws)
              p->stages[s].block_end = ws;
            continue;
          }
        if (p->stages[ws].nest == p->stages[s].nest)
          {
            te_diag_set (diag, TE_DIAG_USER, st->loc,
                         "'%s' is read here and written by a later loop of "
                         "the same nest in earlier iterations; not "
                         "supported yet",
                         t->name);
            if (t->batch_tape)
              te_diag_note (diag, "'%s' is a state the time loop carries "
                                  "inside a loop over samples; a step "
                                  "that reads it in one inner loop and "
                                  "updates it in a later one is a "
                                  "recurrence over the inner of two "
                                  "loops, which is not done yet",
                            t->name);
            else
              te_diag_note (diag, "compute the value where it is read, "
                                  "in the same inner loop, or move the "
                                  "loop that writes '%s' before this nest",
                            t->name);
          }
        else
          te_diag_set (diag, TE_DIAG_USER, st->loc,
                       "'%s' is read here and overwritten by a later "
                       "loop nest; not supported yet",
                       t->name);
        return false;
      }
  return true;
}

/* The earlier stage whose write of T may write an element that statement
   ST of stage S, which writes T, writes too; -1 if none.  Sets *CERTAIN
   when it does for sure: that write covers a dense range that holds all
   that ST writes (else the two may only not be told apart).  */
static int
overlaps_earlier_write (te_program *p, const te_tensor *t, int s,
                        const te_stmt *st, bool *certain)
{
  te_ctx *ctx = p->ctx;
  for (int ps = 0; ps < s; ps++)
    for (int pk = 0; pk < p->stages[ps].nstmts; pk++)
      {
        const te_stmt *w = &p->stages[ps].stmts[pk];
        if (w->dst != t || disjoint (p, &p->stages[ps], w, &p->stages[s], st))
          continue;
        te_loop wl[2 * TE_MAX_LOOPS], sl[2 * TE_MAX_LOOPS];
        int nw = te_access_loops (p->nvars, &p->stages[ps], 0, w, w->index,
                                  true, wl);
        int ns = te_access_loops (p->nvars, &p->stages[s], 0, st, st->index,
                                  true, sl);
        te_node *wlo, *whi, *slo, *shi;
        *certain = nw >= 0 && ns >= 0
                   && te_dense (ctx, w->index, nw, wl, &wlo, &whi)
                   && te_index_range (ctx, st->index, ns, sl, &slo, &shi)
                   && te_non_negative_where_run (
                       ctx, te_canon_int (ctx, te_sub (ctx, slo, wlo)),
                       &p->stages[ps], &p->stages[s])
                   && te_non_negative_where_run (
                       ctx, te_canon_int (ctx, te_sub (ctx, whi, shi)),
                       &p->stages[ps], &p->stages[s]);
        return ps;
      }
  return -1;
}

/* Refuse ST, a statement of stage S writing T where the write of stage
   PS wrote before (version.c gave it no version): at ST, saying which
   limit it meets; CERTAIN when the two surely write the same elements
   (overlaps_earlier_write).  */
static bool
refuse_overwrite (te_program *p, te_tensor *t, int ps, int s,
                  const te_stmt *st, bool certain, te_diag *diag)
{
  const te_stage *a = &p->stages[ps], *b = &p->stages[s];
  int shared = te_shared_loops (a, b);
  if (a->nest == b->nest && !te_stage_empty (a))
    te_diag_set (diag, TE_DIAG_USER, st->loc,
                 "'%s' is written here and by an earlier loop of the same "
                 "nest, in elements that may meet; not supported yet",
                 t->name);
  else if (certain)
    te_diag_set (diag, TE_DIAG_USER, st->loc,
                 "'%s' is written by more than one loop nest; not "
                 "supported yet",
                 t->name);
  else
    /* The nests may write apart (rows only a size spaces, a bound
       computed apart), but that cannot be told: say so.  */
    te_diag_set (diag, TE_DIAG_USER, st->loc,
                 "'%s' is written by more than one loop nest, which may "
                 "write the same elements; not supported yet",
                 t->name);
  te_node *loads[64];
  int nloads = te_loads_of (st->value, t, loads, 64);
  bool others = nloads < 0;
  for (int i = 0; i < nloads; i++)
    others |= te_canon_int (p->ctx, loads[i]->args[0])
              != te_canon_int (p->ctx, st->index);
  bool same_nest = a->nest == b->nest && !te_stage_empty (a);
  if (st->op == TE_SET && others && b->nloops - shared <= a->nloops - shared)
    te_diag_note (diag, "this statement rewrites part of what the earlier "
                        "loop wrote from other elements of '%s'; such a "
                        "rewrite gets a version only when it reads no "
                        "element of '%s' but the one it writes",
                  t->name, t->name);
  else if (!certain && !same_nest)
    te_diag_note (diag, "tensorgrad cannot tell that this nest and an "
                        "earlier one write different elements; where "
                        "they meet, the gradient would lose the value "
                        "the earlier nest wrote; write this result to "
                        "another array");
  else if (st->op == TE_SET && b->nloops - shared <= a->nloops - shared
           && a->nloops > shared)
    te_diag_note (diag, "a later store gets a version where it rewrites "
                        "single elements of what the earlier loop wrote, "
                        "or a run of them at its innermost loop's step, "
                        "all among those it wrote; store each element "
                        "once, the test inside");
  else
    te_diag_note (diag, "the gradient would lose the value the "
                        "earlier nest wrote; write this result to "
                        "another array");
  return false;
}

/* May ST, a store into T through an index array, store twice to one
   element: is it anything but T[i] += a value that does not read T?  */
static bool
scatter_may_repeat (te_program *p, te_tensor *t, const te_stmt *st)
{
  te_red_kind kind;
  te_node *body;
  return !(te_match_update (p->ctx, st->value, te_load (p->ctx, t, st->index),
                            &kind, &body)
           && kind == TE_RED_SUM && !te_reads (body, t));
}

/* Do the earlier statements of stage S that write T write elements
   provably apart from those ST writes (y[i] and y[n + i] in one loop)?  */
static bool
apart_from_siblings (te_program *p, const te_tensor *t, int s,
                     const te_stmt *st)
{
  const te_stage *sg = &p->stages[s];
  for (const te_stmt *o = sg->stmts; o < st; o++)
    if (o->dst == t && !disjoint (p, sg, o, sg, st))
      return false;
  return true;
}

/* Is ST, a statement of stage S that writes T, a write the gradient
   supports: apart from the writes of earlier nests, the only writer of
   its elements in S (SAME_STAGE: an earlier statement of S writes T),
   of floating elements, not a store through an index array that may
   repeat, and each element written once?  False with DIAG if not.  */
static bool
write_supported (te_program *p, te_tensor *t, int s, const te_stmt *st,
                 bool same_stage, te_diag *diag)
{
  bool certain = false;
  int ps = overlaps_earlier_write (p, t, s, st, &certain);
  if (ps >= 0)
    return refuse_overwrite (p, t, ps, s, st, certain, diag);
  if (same_stage && !distinct_constant_writes (&p->stages[s], t)
      && !apart_from_siblings (p, t, s, st))
    {
      te_diag_set (diag, TE_DIAG_USER, st->loc,
                   "'%s' is written by two statements of a loop nest "
                   "whose elements may meet; not supported yet",
                   t->name);
      te_diag_note (diag, "the gradient needs every element written "
                          "once; statements of one loop may store to "
                          "places of one array that never meet (y[2*i] "
                          "and y[2*i + 1])");
      return false;
    }
  if (!te_type_is_float (t->type))
    return te_diag_set (diag, TE_DIAG_USER, st->loc,
                        "integer array '%s' is written; a "
                        "differentiable kernel may only read integer "
                        "arrays",
                        t->name);
  if (te_reads (st->index, NULL) && scatter_may_repeat (p, t, st))
    {
      te_diag_set (diag, TE_DIAG_USER, st->loc,
                   "'%s' is stored through an index array, whose "
                   "indices may repeat; not supported",
                   t->name);
      te_diag_note (diag, "where an index repeats, the last store "
                          "wins and the gradient would be wrong; "
                          "accumulate with += instead");
      return false;
    }
  if (!uses_every_counter (&p->stages[s], st->index))
    {
      te_diag_set (diag, TE_DIAG_USER, st->loc,
                   "each element of '%s' is written more than once "
                   "(its index does not use every loop counter); not "
                   "supported yet",
                   t->name);
      te_diag_note (diag, "the gradient would lose the values "
                          "overwritten; index '%s' by every loop "
                          "counter, or accumulate with +=",
                    t->name);
      return false;
    }
  return true;
}

/* Where the statements that write a tensor are: FIRST and LAST the first
   and last stages that hold one (-1 for none), LAST_STMT the first of
   them in stage LAST.  */
typedef struct write_span
{
  int first, last, last_stmt;
} write_span;

/* Check every statement that writes T (write_supported) and set SPAN to
   where they are; false with DIAG at the first one not supported.  */
static bool
find_writes (te_program *p, te_tensor *t, write_span *span, te_diag *diag)
{
  *span = (write_span){ -1, -1, -1 };
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        if (st->dst != t)
          continue;
        if (!write_supported (p, t, s, st, span->last == s, diag))
          return false;
        if (span->first < 0)
          span->first = s;
        if (span->last != s)
          span->last_stmt = k;
        span->last = s;
      }
  return true;
}

/* Refuse the loop-carried dependence through T of the read R (statement
   READER of stage S, whose statement W writes T), with a note when the
   recurrence starts from elements the kernel does not write.  */
static bool
refuse_carried (te_program *p, const te_tensor *t, const te_stage *s,
                const te_stmt *w, const te_stmt *reader, const te_node *r,
                te_diag *diag)
{
  te_diag_set (diag, TE_DIAG_USER, w->loc,
               "loop-carried dependence through '%s' is not "
               "supported yet",
               t->name);
  bool down;
  if (reads_earlier_iterations (p, s, w, reader, r, &down))
    te_diag_note (diag,
                  "the recurrence reads elements of '%s' that the "
                  "kernel does not write first; write them in a "
                  "statement of their own before the loop",
                  t->name);
  return false;
}

/* Is N >= 0 wherever the loops of stage S run: also with each of its
   extents that is a size alone at least 1 (T n - n with t < T).  Only
   the reading stage's loops may be assumed to run: a writer that does
   not run leaves the caller's values.  */
static bool
run_non_negative (te_ctx *ctx, te_node *n, const te_stage *s)
{
  if (te_non_negative_where_run (ctx, n, s, s))
    return true;
  for (int k = 0; k < s->nloops; k++)
    {
      te_node *e = te_canon_int (ctx, s->loops[k].extent);
      if (e->op == TE_PARAM)
        n = te_replace (ctx, n, e, te_add (ctx, e, te_int (ctx, 1)));
    }
  return te_non_negative (ctx, te_canon_int (ctx, n));
}

/* Is a load of T in N behind a condition (UNDER: N is): in an arm of a
   select, or the second operand of && or ||?  */
static bool
conditional_load (const te_node *n, const te_tensor *t, bool under)
{
  if (!n)
    return false;
  if (n->op == TE_LOAD && n->u.tensor == t)
    return under;
  for (int i = 0; i < te_op_arity (n->op); i++)
    if (conditional_load (n->args[i], t,
                          under
                              || (n->op == TE_SELECT && i > 0)
                              || ((n->op == TE_AND || n->op == TE_OR)
                                  && i > 0)))
      return true;
  return false;
}

/* Does the read R of an output reach, in a row that W writes, past
   the part of it W writes: both rows of C (a counter's coefficient in
   W's index) named by the same outer counters over loops of the same
   extents, each row written by one iteration of them, and R's columns
   in the row not within W's (a causal row p[t*T + u] written for
   u <= t, read for u < T)?  Then the elements past are never written:
   the read sees the caller's values.  False when that cannot be told.  */
static bool
row_read_beyond (te_program *p, const ranged *w, const ranged *r,
                 const te_stmt *reader, const te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  /* A read behind a condition (u <= t ? p[t*T + u] : 0) may stay in
     what was written: not told here.  */
  if (reader->guard || conditional_load (reader->value, t, false))
    return false;
  for (int k = 0; k < w->nloops; k++)
    {
      te_node *c = te_coefficient (ctx, w->index, w->loops[k].var);
      te_node *lo, *hi;
      row_part rw, rr;
      if ((c->op == TE_CONST && c->u.i < 2)
          || !rows_of (p, w, c, r->s, &lo, &hi, &rw)
          || !rows_of (p, r, c, w->s, &lo, &hi, &rr))
        continue;
      int nq = rw.nq;
      if (nq == 0 || rr.nq != nq || nq > w->nloops || nq > r->nloops)
        continue;
      bool alike = true;
      for (int j = 0; j < nq && alike; j++)
        alike = te_canon_int (ctx, te_rename_counters (
                                       ctx, r->loops[j].extent, nq, r->loops,
                                       w->loops))
                == te_canon_int (ctx, w->loops[j].extent);
      te_node *q = rw.q;
      int none = 0;
      const te_loop *no_loops = NULL;
      if (!alike
          || te_canon_int (ctx, te_rename_counters (ctx, rr.q, nq, r->loops,
                                                    w->loops))
                 != q
          || !te_rows_apart (ctx, nq, w->loops, 1, &q, &none, &no_loops,
                             w->s, NULL, NULL))
        continue;
      te_node *rlo = te_rename_counters (ctx, rr.lo, nq, r->loops, w->loops);
      te_node *rhi = te_rename_counters (ctx, rr.hi, nq, r->loops, w->loops);
      te_node *d[2] = { te_canon_int (ctx, te_sub (ctx, rlo, rw.lo)),
                        te_canon_int (ctx, te_sub (ctx, rw.hi, rhi)) };
      for (int i = 0; i < 2; i++)
        {
          /* At the rows' counters that make it smallest too (T - 1 - t
             with t < T).  */
          te_node *dlo, *dhi;
          if (!run_non_negative (ctx, d[i], w->s)
              && !(te_index_range (ctx, d[i], nq, w->loops, &dlo, &dhi)
                   && run_non_negative (ctx, dlo, w->s)))
            return true;
        }
      return false;
    }
  return false;
}

/* An output T that one statement writes, in a stage before the read A
   (its caller's entry values are not the kernel's): does A read only
   elements it wrote?  False with DIAG when A may read past them (y
   written for i < m and read for i < n) or the write is guarded and
   the read is not under its condition (if (x[i] > 0) y[i] = ...; then
   z[i] = y[i]): the read would see the caller's values, whose adjoint
   an output does not return.  */
static bool
read_covered (te_program *p, const te_tensor *t, const access *a,
              te_diag *diag)
{
  te_ctx *ctx = p->ctx;
  if (t->kind != TE_TK_PARAM)
    return true;
  const te_stage *ws = NULL;
  const te_stmt *w = NULL;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      if (p->stages[s].stmts[k].dst == t)
        {
          if (w || s >= a->stage)
            return true; /* several writers: their union is not told */
          ws = &p->stages[s];
          w = &p->stages[s].stmts[k];
        }
  if (!w || w->op != TE_SET || w->ninner)
    return true;
  const te_stage *as = &p->stages[a->stage];
  const te_stmt *ast = &as->stmts[a->stmt];
  if (w->guard)
    {
      if ((ast->guard && te_contains (ast->guard, w->guard))
          || te_contains (ast->value, w->guard))
        return true;
      te_diag_set (diag, TE_DIAG_USER, ast->loc,
                   "'%s' is read here where the statement that writes it "
                   "may not have run; not supported yet",
                   t->name);
      te_diag_note (diag, "the caller's values of an output are not the "
                          "kernel's; write '%s' on every path, or read it "
                          "under the same condition",
                    t->name);
      return false;
    }
  te_node *wlo, *whi, *rlo, *rhi;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_access_loops (p->nvars, as, 0, ast, a->index, false, loops);
  ranged xw = write_access (ws, w), xr = { as, (te_node *) a->index, n,
                                           loops };
  if (n < 0 || !row_read_beyond (p, &xw, &xr, ast, t))
    {
      if (!te_writes_in_order (ctx, ws, w->index)
          || !te_index_range (ctx, w->index, ws->nloops, ws->loops, &wlo,
                              &whi)
          || n < 0
          || !te_read_range (ctx, ast->value, ast->guard, t, a->index, n,
                             loops, &rlo, &rhi))
        return true; /* not told: left as before */
      te_node *below = te_canon_int (ctx, te_sub (ctx, rlo, wlo));
      te_node *above = te_canon_int (ctx, te_sub (ctx, whi, rhi));
      if (run_non_negative (ctx, below, as)
          && run_non_negative (ctx, above, as))
        return true;
    }
  /* Refuse only what is sure to reach past: bounds that differ in the
     sizes (m and n) cannot be told apart.  */
  te_diag_set (diag, TE_DIAG_USER, ast->loc,
               "'%s' may be read here beyond the elements the kernel "
               "wrote; not supported yet",
               t->name);
  te_diag_note (diag, "the caller's values of an output are not the "
                      "kernel's; read only the elements the kernel writes");
  return false;
}

/* What the read A of T sees, T's writes being at SPAN: its entry value
   (sets *ENTRY_READ), or a value the kernel wrote, read after the stage
   that writes it or by a recurrence of that stage, which it marks (sets
   *READ_BACK).  False with DIAG for any other read.  */
static bool
classify_read (te_program *p, te_tensor *t, const access *a,
               const write_span *span, bool *entry_read, bool *read_back,
               te_diag *diag)
{
  int first = span->first;
  te_stage *as = &p->stages[a->stage];
  te_stmt *ast = &as->stmts[a->stmt];
  int k = writer_at (as, t, a->index);
  int w = -1;
  for (int j = 0; j < as->nstmts; j++)
    if (as->stmts[j].dst == t)
      w = j;
  if (a->stage < first || (a->stage == first && w >= 0 && k >= 0
                           && a->stmt <= k && first == span->last))
    {
      /* The entry value: before any write, or the element this very
         statement overwrites.  */
      if (t->kind == TE_TK_LOCAL)
        return te_diag_set (diag, TE_DIAG_USER, ast->loc,
                            "'%s' is read before it is written", t->name);
      *entry_read = true;
      return true;
    }
  if (w < 0)
    {
      if (!no_later_writer (p, t, a->stage, ast, a->index, diag)
          || !read_covered (p, t, a, diag))
        return false;
      *read_back = true;
      return true;
    }
  if (k >= 0 && a->stmt > k)
    return te_diag_set (diag, TE_DIAG_USER, ast->loc,
                        "'%s' is read after it is written; not "
                        "supported yet",
                        t->name);
  bool down;
  if (reads_earlier_iterations (p, as, &as->stmts[w], ast, a->index, &down)
      && written_before (p, t, first, as, ast, a->index, down))
    {
      as->recurrent = true;
      *read_back = true;
      return true;
    }
  return refuse_carried (p, t, as, &as->stmts[w], ast, a->index, diag);
}

/* Decide the role of T; false with DIAG on what is not supported.  */
static bool
tensor_role (te_program *p, te_tensor *t, te_diag *diag)
{
  int call_read = -1; /* the first stage whose call reads T */
  for (int s = 0; s < p->nstages; s++)
    {
      if (te_call_passes (&p->stages[s], t, false))
        return call_output_role (p, t, s, diag);
      if (call_read < 0 && te_call_passes (&p->stages[s], t, true))
        call_read = s;
    }
  write_span span;
  if (!find_writes (p, t, &span, diag))
    return false;
  reads_of r = find_reads (p, t);
  if (span.last < 0)
    {
      t->role = r.n || call_read >= 0 ? TE_ROLE_INPUT : TE_ROLE_UNUSED;
      return true;
    }
  if (call_read >= 0 && call_read < span.last)
    return te_diag_set (diag, TE_DIAG_USER, p->stages[span.last].stmts[0].loc,
                        "'%s' is written after the call to '%s' reads it; "
                        "not supported yet",
                        t->name, p->stages[call_read].call->name);
  bool entry_read = false, read_back = false;
  for (int i = 0; i < r.n; i++)
    if (!classify_read (p, t, &r.items[i], &span, &entry_read, &read_back,
                        diag))
      return false;
  if (entry_read && (read_back || span.first != span.last))
    return te_diag_set (diag, TE_DIAG_USER,
                        p->stages[span.last].stmts[span.last_stmt].loc,
                        "'%s' is read both before and after this statement "
                        "overwrites it; not supported yet",
                        t->name);
  t->role = t->kind == TE_TK_LOCAL ? TE_ROLE_TEMP
            : entry_read           ? TE_ROLE_INOUT
                                   : TE_ROLE_OUTPUT;
  t->read_back = read_back || call_read >= 0;
  if (t->kind == TE_TK_RETURN)
    t->role = TE_ROLE_OUTPUT;
  return true;
}

#define MAX_TOPS 64

typedef struct extent_query
{
  te_program *p;
  const te_tensor *t;
  const te_stage *s;
  const te_stmt *st;
  te_node *bound;
  bool unknown;
  unsigned char *always; /* node id -> evaluated whatever the data */
  bool guarded;          /* the access being folded may not run */
  te_node *present;      /* T's test against NULL, if it is optional */
  te_node *tops[MAX_TOPS]; /* the bounds of accesses that always run */
  int ntops;
  te_node *guarded_tops[MAX_TOPS];
  int nguarded;
} extent_query;

/* Which nodes of a program are evaluated whatever the data: ALWAYS by
   node id; REACH, the stamp of the last walk over a select's arm.  */
typedef struct always_marks
{
  unsigned char *always;
  int *reach;
  int stamp;
  te_node *present;      /* a test against NULL taken to hold, or NULL */
} always_marks;

/* Stamp every node of N with STAMP in M->reach; with BOTH, the nodes
   that already had STAMP - 1 (reached from the other arm) are marked
   always instead.  */
static void
reach_arm (always_marks *m, te_node *n, int stamp, bool both);
static void mark_always (always_marks *m, te_node *n);

static void
reach_arm (always_marks *m, te_node *n, int stamp, bool both)
{
  if (m->always[n->id] || m->reach[n->id] == stamp)
    return;
  if (both && m->reach[n->id] == stamp - 1)
    {
      mark_always (m, n);
      return;
    }
  m->reach[n->id] = stamp;
  for (int k = 0; k < te_op_arity (n->op); k++)
    reach_arm (m, n->args[k], stamp, both);
}

/* Mark the nodes of N that are evaluated whenever N is: not inside only
   one arm of a select, nor the second operand of && or ||.  A node both
   arms of a select evaluate is evaluated either way.  */
static void
mark_always (always_marks *m, te_node *n)
{
  if (m->always[n->id])
    return;
  m->always[n->id] = 1;
  if (n->op == TE_AND || n->op == TE_OR)
    {
      mark_always (m, n->args[0]);
      if (m->present && n->args[0] == m->present && n->op == TE_AND)
        mark_always (m, n->args[1]);
      return;
    }
  /* The arm that the test of the tensor whose extent is asked picks:
     when the caller passes the tensor, it runs.  */
  if (n->op == TE_SELECT && m->present
      && (n->args[0] == m->present
          || (n->args[0]->op == TE_NOT && n->args[0]->args[0] == m->present)))
    {
      mark_always (m, n->args[0]);
      mark_always (m, n->args[n->args[0] == m->present ? 1 : 2]);
      return;
    }
  if (n->op == TE_SELECT)
    {
      mark_always (m, n->args[0]);
      m->stamp += 2;
      reach_arm (m, n->args[1], m->stamp, false);
      reach_arm (m, n->args[2], m->stamp + 1, true);
      m->stamp += 2;
      return;
    }
  for (int k = 0; k < te_op_arity (n->op); k++)
    mark_always (m, n->args[k]);
}

/* Fold access INDEX of Q's tensor, in Q's statement, into Q's bound.  */
static void
extent_of_access (extent_query *q, te_node *index)
{
  te_ctx *ctx = q->p->ctx;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_access_loops (q->p->nvars, q->s, 0, q->st, index, false, loops);
  index = te_canon_int (ctx, index);
  te_node *hi = n < 0 ? NULL : te_index_upper (ctx, index, n, loops);
  if (!hi)
    {
      q->unknown = true;
      return;
    }
  for (int k = 0; k < n; k++)
    if (!te_param_poly (te_canon_int (ctx, loops[k].extent)))
      {
        q->unknown = true;
        return;
      }
  te_node *top = te_add (ctx, hi, te_int (ctx, 1));
  top = te_canon_int (ctx, top);
  /* An access that may not run (a padded convolution's taps behind
     iy < h) may reach past the array where it does not: it counts only
     where an access that always runs reaches as far or further.  */
  te_node **tops = q->guarded ? q->guarded_tops : q->tops;
  int *ntops = q->guarded ? &q->nguarded : &q->ntops;
  if (*ntops == MAX_TOPS)
    {
      q->unknown = true;
      return;
    }
  tops[(*ntops)++] = top;
  if (!q->guarded)
    q->bound = te_binary (ctx, TE_MAX, q->bound, top);
}

static void
extent_of_load (te_node *n, void *data)
{
  extent_query *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    {
      q->guarded = (q->st->guard && q->st->guard != q->present)
                   || !q->always[n->id];
      extent_of_access (q, n->args[0]);
    }
}

/* Is A >= B whatever the integer parameters, each at least 1 (as every
   loop runs at least once, the extents' assumption)?  */
static bool
at_least (te_program *p, te_node *a, te_node *b)
{
  te_ctx *ctx = p->ctx;
  te_node *d = te_canon_int (ctx, te_sub (ctx, a, b));
  for (int i = 0; i < p->nparams; i++)
    if (p->params[i].kind == TE_PK_INT)
      {
        te_node *q = te_param_ref (ctx, TE_I64, i);
        d = te_replace (ctx, d, q, te_add (ctx, q, te_int (ctx, 1)));
      }
  return te_non_negative (ctx, d);
}

/* Does every one of the N bounds B stay at or below one of the NT
   bounds TOPS (of accesses that always run)?  */
static bool
covered (te_program *p, te_node *const *tops, int nt, te_node *const *b,
         int n)
{
  for (int g = 0; g < n; g++)
    {
      bool ok = false;
      for (int u = 0; u < nt && !ok; u++)
        ok = at_least (p, tops[u], b[g]);
      if (!ok)
        return false;
    }
  return true;
}

/* ---- extents along the paths of the selects ---------------------------- */

/* A condition on the path to an access: C, or its negation.  */
typedef struct path_lit
{
  te_node *c;
  bool neg;
} path_lit;

#define MAX_LITS 8

typedef struct path_query
{
  te_program *p;
  const te_tensor *t;
  const te_stage *s;
  const te_stmt *st;
  te_node *present;
  te_node *bound;
  te_node *tops[MAX_TOPS], *loose[MAX_TOPS];
  int ntops, nloose;
  long budget;
  bool unknown;
} path_query;

/* Does N use a counter of loop K of LOOPS or one inside it?  */
static bool
uses_from (const te_node *n, const te_loop *loops, int nloops, int k)
{
  for (int j = k; j < nloops; j++)
    if (te_uses_var (n, loops[j].var))
      return true;
  return false;
}

/* Bound the loops LOOPS (N of them) by L < R, where the access runs:
   a counter v with L = v + K gets the extent R - K when that is never
   above its own; a bound from below on a counter by the sizes alone
   (K < v) leaves the largest element as it was.  False when the
   condition cannot be used so.  */
static bool
bound_by_less (te_ctx *ctx, te_node *l, te_node *r, te_loop *loops, int n)
{
  for (int k = 0; k < n; k++)
    {
      te_node *v = te_var (ctx, loops[k].var);
      te_node *kl = te_canon_int (ctx, te_sub (ctx, l, v));
      if (kl->op == TE_CONST)
        {
          te_node *e = te_canon_int (ctx, te_sub (ctx, r, kl));
          if (uses_from (e, loops, n, k))
            return false;
          te_node *d = te_canon_int (ctx, te_sub (ctx, loops[k].extent, e));
          te_node *lo, *hi;
          if (!te_index_range (ctx, d, k, loops, &lo, &hi))
            return false;
          if (te_non_negative (ctx, lo))
            loops[k].extent = e;
          else if (!(te_index_range (ctx, te_canon_int (ctx, te_sub (
                                                   ctx, te_int (ctx, 0), d)),
                                     k, loops, &lo, &hi)
                     && te_non_negative (ctx, lo)))
            return false;
          return true;
        }
    }
  return !uses_from (l, loops, n, 0);
}

/* The disequality C between a counter and its last value (i != n - 1,
   a stencil's end held) ends that counter's loop one earlier in LOOPS
   (of N).  */
static void
last_left_out (te_ctx *ctx, const te_node *c, te_loop *loops, int n)
{
  for (int k = 0; k < n; k++)
    for (int side = 0; side < 2; side++)
      {
        te_node *v = te_var (ctx, loops[k].var);
        te_node *a = te_canon_int (ctx, te_cast (ctx, TE_I64,
                                                 c->args[side]));
        te_node *e = te_canon_int (ctx, te_cast (ctx, TE_I64,
                                                 c->args[1 - side]));
        te_node *last = te_canon_int (ctx, te_sub (ctx, loops[k].extent,
                                                   te_int (ctx, 1)));
        if (a == te_canon_int (ctx, v) && !uses_from (e, loops, n, k)
            && te_canon_int (ctx, te_sub (ctx, e, last)) == te_int (ctx, 0))
          {
            loops[k].extent = last;
            return;
          }
      }
}

/* Apply the condition C (negated with NEG) on the path of an access to
   its loops; false when it makes the largest element unknown.  A
   condition on data (it reads an array) or on the sizes alone bounds
   nothing: the arrays hold every element such an access may reach.  */
static bool
apply_lit (path_query *q, te_node *c, bool neg, te_loop *loops, int n)
{
  te_ctx *ctx = q->p->ctx;
  c = te_bool_of (ctx, c, &neg);
  if (c == q->present || te_reads (c, NULL))
    return true;
  bool counters = false;
  for (int k = 0; k < n; k++)
    counters |= te_uses_var (c, loops[k].var);
  if (!counters)
    return true;
  switch (c->op)
    {
    case TE_NOT:
      return apply_lit (q, c->args[0], !neg, loops, n);
    case TE_AND:
    case TE_OR:
      if ((c->op == TE_AND) == !neg)
        return apply_lit (q, c->args[0], neg, loops, n)
               && apply_lit (q, c->args[1], neg, loops, n);
      return false;
    case TE_NE:
    case TE_EQ:
      /* v != e leaves out one point; v == e keeps one.  */
      if (c->args[0]->type == TE_BOOL || (c->op == TE_NE) != !neg)
        return false;
      last_left_out (ctx, c, loops, n);
      return true;
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
      {
        te_node *l, *r;
        return te_as_less (ctx, c, neg, &l, &r) && te_pure_poly (l)
               && te_pure_poly (r) && bound_by_less (ctx, l, r, loops, n);
      }
    default:
      return false;
    }
}

/* One past the largest INDEX reaches where the condition C (negated
   with NEG) holds, when C bounds the index itself: L < R with INDEX =
   L + K and R of the sizes alone (a padded window's x[i + k - 1] behind
   i + k - 1 < n: below n); else NULL.  */
static te_node *
index_cap (path_query *q, te_node *c, bool neg, te_node *index,
           const te_loop *loops, int n)
{
  te_ctx *ctx = q->p->ctx;
  c = te_bool_of (ctx, c, &neg);
  if (c->op == TE_NOT)
    return index_cap (q, c->args[0], !neg, index, loops, n);
  if ((c->op == TE_AND && !neg) || (c->op == TE_OR && neg))
    {
      te_node *a = index_cap (q, c->args[0], neg, index, loops, n);
      return a ? a : index_cap (q, c->args[1], neg, index, loops, n);
    }
  te_node *l, *r;
  if (!te_as_less (ctx, c, neg, &l, &r))
    return NULL;
  /* INDEX = L + REST, REST free of L's counters (a row's offset).  */
  te_node *rest = te_canon_int (
      ctx, te_sub (ctx, te_canon_int (ctx, te_cast (ctx, TE_I64, index)), l));
  if (!te_pure_poly (r) || !te_pure_poly (rest))
    return NULL;
  for (int v = 0; v < q->p->nvars; v++)
    if (te_uses_var (r, v) || (te_uses_var (l, v) && te_uses_var (rest, v)))
      return NULL;
  te_node *up = te_index_upper (ctx, rest, n, loops);
  return up ? te_canon_int (ctx, te_add (ctx, r, up)) : NULL;
}

#define MAX_ATOMS 16

typedef struct cap_atom
{
  te_node *l, *r; /* L < R */
  int lit;        /* the literal it comes from */
} cap_atom;

/* One past the largest INDEX reaches where the NL conditions LITS hold,
   when some bound parts of it: INDEX = M1 L1 + M2 L2 + ... + REST with
   each Li < Ri a condition of the path (Ri of the sizes alone, Mi >= 0
   free of counters) and REST free of their counters, the largest REST
   reaches over the NLOOPS LOOPS (a padded 2-D convolution's
   x[(c H + ih) W + iw] behind 0 <= ih < H and 0 <= iw < W: H W C).
   Sets PEELED[i] for each literal whose condition was used; NULL if
   none was.  */
static te_node *
peel_cap (path_query *q, const path_lit *lits, int nl, te_node *index,
          const te_loop *loops, int nloops, bool *peeled)
{
  te_ctx *ctx = q->p->ctx;
  cap_atom atoms[MAX_ATOMS];
  int na = 0;
  for (int i = 0; i < nl; i++)
    {
      te_node *ls[MAX_ATOMS], *rs[MAX_ATOMS];
      int m = te_conjunct_less (ctx, lits[i].c, lits[i].neg, ls, rs,
                                MAX_ATOMS - na, NULL);
      for (int j = 0; j < m; j++)
        if (te_pure_poly (ls[j]) && te_pure_poly (rs[j]))
          atoms[na++] = (cap_atom){ ls[j], rs[j], i };
    }
  te_node *rem = te_canon_int (ctx, te_cast (ctx, TE_I64, index));
  te_node *total = te_int (ctx, 0);
  bool any = false;
  for (int a = 0; a < na; a++)
    {
      te_node *l = atoms[a].l, *r = atoms[a].r;
      bool r_free = true;
      for (int v = 0; v < q->p->nvars; v++)
        r_free &= !te_uses_var (r, v);
      if (!r_free)
        continue;
      int pick = -1;
      for (int v = 0; v < q->p->nvars && pick < 0; v++)
        if (te_uses_var (l, v) && te_coefficient (ctx, l, v) == te_int (ctx, 1))
          pick = v;
      if (pick < 0)
        continue;
      te_node *m = te_coefficient (ctx, rem, pick);
      bool ok = te_pure_poly (m) && !te_is_const (m, 0)
                && te_non_negative (ctx, m);
      for (int v = 0; ok && v < q->p->nvars; v++)
        ok = !te_uses_var (m, v);
      if (!ok)
        continue;
      te_node *rest = te_canon_int (ctx, te_sub (ctx, rem, te_mul (ctx, m, l)));
      for (int v = 0; ok && v < q->p->nvars; v++)
        ok = !(te_uses_var (l, v) && te_uses_var (rest, v));
      if (!ok)
        continue;
      total = te_add (ctx, total, te_mul (ctx, m, te_sub (ctx, r,
                                                           te_int (ctx, 1))));
      rem = rest;
      peeled[atoms[a].lit] = true;
      any = true;
    }
  if (!any)
    return NULL;
  te_node *up = te_index_upper (ctx, rem, nloops, loops);
  return up ? te_canon_int (ctx, te_add (ctx, te_add (ctx, total, up),
                                         te_int (ctx, 1)))
            : NULL;
}

/* Does C use no counter (of NVARS) that INDEX does not use?  */
static bool
uses_only (const te_node *c, const te_node *index, int nvars)
{
  for (int v = 0; v < nvars; v++)
    if (te_uses_var (c, v) && !te_uses_var (index, v))
      return false;
  return true;
}

/* Fold access INDEX of Q's tensor, reached under the NL conditions
   LITS, into Q's bound (exact) or into its loose tops.  */
static void
path_access (path_query *q, te_node *index, const path_lit *lits, int nl)
{
  te_ctx *ctx = q->p->ctx;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_access_loops (q->p->nvars, q->s, 0, q->st, index, false, loops);
  if (n < 0)
    {
      q->unknown = true;
      return;
    }
  bool exact = true;
  te_node *cap = NULL;
  bool peeled[MAX_LITS + 1] = { false };
  te_node *peel = NULL;
  for (int i = 0; i < nl && exact; i++)
    if (!apply_lit (q, lits[i].c, lits[i].neg, loops, n))
      {
        te_node *c = index_cap (q, lits[i].c, lits[i].neg, index, loops,
                                n);
        if (!c && !peel)
          {
            te_loop all[2 * TE_MAX_LOOPS];
            int na = te_access_loops (q->p->nvars, q->s, 0, q->st, index,
                                      false, all);
            peel = na < 0 ? NULL
                          : peel_cap (q, lits, nl, index, all, na, peeled);
          }
        if (!c && peel && peeled[i])
          c = peel;
        /* A bound on a counter the index does not use (a padded
           window's test of l + k - P for the weight w[k]) leaves that
           counter free to meet it: the index still reaches its top.  */
        exact = c != NULL || !uses_only (lits[i].c, index, q->p->nvars);
        cap = cap ? cap : c;
      }
  if (!exact)
    n = te_access_loops (q->p->nvars, q->s, 0, q->st, index, false, loops);
  te_node *hi = te_index_upper (ctx, te_canon_int (ctx, index), n, loops);
  for (int k = 0; hi && k < n; k++)
    if (!te_param_poly (te_canon_int (ctx, loops[k].extent)))
      hi = NULL;
  int *nt = exact ? &q->ntops : &q->nloose;
  if (!hi || *nt == MAX_TOPS)
    {
      q->unknown = true;
      return;
    }
  te_node *top = te_canon_int (ctx, te_add (ctx, hi, te_int (ctx, 1)));
  if (cap)
    top = te_canon_int (ctx, te_binary (ctx, TE_MIN, top, cap));
  (exact ? q->tops : q->loose)[(*nt)++] = top;
  if (exact)
    q->bound = te_binary (ctx, TE_MAX, q->bound, top);
}

/* Walk N under the NL conditions LITS, folding every load of Q's
   tensor.  */
static void
path_walk (path_query *q, te_node *n, path_lit *lits, int nl)
{
  if (!n || q->unknown)
    return;
  if (--q->budget < 0)
    {
      q->unknown = true;
      return;
    }
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    path_access (q, n->args[0], lits, nl);
  int ar = te_op_arity (n->op);
  if ((n->op == TE_SELECT || n->op == TE_AND || n->op == TE_OR)
      && nl < MAX_LITS)
    {
      path_walk (q, n->args[0], lits, nl);
      lits[nl] = (path_lit){ n->args[0], n->op == TE_OR };
      path_walk (q, n->args[1], lits, nl + 1);
      if (n->op == TE_SELECT)
        {
          lits[nl].neg = true;
          path_walk (q, n->args[2], lits, nl + 1);
        }
      return;
    }
  for (int k = 0; k < ar; k++)
    path_walk (q, n->args[k], lits, nl);
}

/* T's extent from each access's loops bounded by the conditions on its
   path (a causal score's keys behind u <= t, a neighbour behind
   i + 1 < n); an access whose conditions bound it in another way must
   stay below an exact one.  NULL when that cannot be told.  */
static te_node *
path_extent (te_program *p, const te_tensor *t, te_node *present)
{
  path_query q;
  memset (&q, 0, sizeof q);
  q.p = p;
  q.t = t;
  q.present = present;
  q.bound = te_int (p->ctx, 0);
  q.budget = 20000;
  path_lit lits[MAX_LITS + 1];
  for (int s = 0; s < p->nstages && !q.unknown; s++)
    for (int k = 0; k < p->stages[s].nstmts && !q.unknown; k++)
      {
        q.s = &p->stages[s];
        q.st = &p->stages[s].stmts[k];
        int nl = 0;
        if (q.st->guard && q.st->guard != present)
          lits[nl++] = (path_lit){ q.st->guard, false };
        if (q.st->dst == t)
          path_access (&q, q.st->index, lits, nl);
        path_walk (&q, q.st->value, lits, nl);
        if (q.st->guard)
          path_walk (&q, q.st->guard, lits, 0);
      }
  q.unknown = q.unknown || !covered (p, q.tops, q.ntops, q.loose, q.nloose);
  return q.unknown ? NULL : q.bound;
}

bool
te_writes_apart (te_program *p, const te_stage *a, const te_stmt *wa,
                 const te_stage *b, const te_stmt *wb)
{
  return disjoint (p, a, wa, b, wb);
}

bool
te_read_apart (te_program *p, const te_stage *s, const te_stmt *st,
               const te_node *r, const te_stage *ws, const te_stmt *w)
{
  return read_apart (p, s, st, r, ws, w);
}

/* te_tensor_extent over the statements (the calls aside).  */
static te_node *
extent_of_stmts (te_program *p, const te_tensor *t)
{
  extent_query q;
  memset (&q, 0, sizeof q);
  q.p = p;
  q.t = t;
  q.bound = te_int (p->ctx, 0);
  q.present = t->optional ? te_nonnull (p->ctx, t->param) : NULL;
  int nids = te_ctx_ids (p->ctx) + 1;
  /* An optional tensor is asked for as the caller passes it: its test
     holds (the descriptor gives it no elements when it is NULL).  */
  te_node *present = q.present;
  always_marks m = { calloc (nids, 1), calloc (nids, sizeof (int)), 0,
                     present };
  if (!m.always || !m.reach)
    {
      free (m.always);
      free (m.reach);
      return NULL;
    }
  q.always = m.always;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        const te_stmt *st = &p->stages[s].stmts[k];
        mark_always (&m, st->guard && st->guard != present ? st->guard
                                                           : st->value);
      }
  for (int s = 0; s < p->nstages && !q.unknown; s++)
    for (int k = 0; k < p->stages[s].nstmts && !q.unknown; k++)
      {
        q.s = &p->stages[s];
        q.st = &p->stages[s].stmts[k];
        if (q.st->dst == t)
          {
            q.guarded = q.st->guard != NULL;
            extent_of_access (&q, q.st->index);
          }
        te_walk (q.st->value, extent_of_load, &q);
        if (q.st->guard)
          {
            /* The guard itself always runs.  */
            const te_stmt *st = q.st;
            te_stmt plain = *st;
            plain.guard = NULL;
            q.st = &plain;
            te_walk (st->guard, extent_of_load, &q);
            q.st = st;
          }
      }
  q.unknown = q.unknown || !covered (p, q.tops, q.ntops, q.guarded_tops,
                                      q.nguarded);
  free (m.always);
  free (m.reach);
  if (q.unknown)
    return path_extent (p, t, present);
  return q.bound;
}

te_node *
te_tensor_extent (te_program *p, const te_tensor *t)
{
  /* A call says which elements it touches when its arguments have
     extents (te_call_arg.extent), and reads T nowhere else.  */
  te_node *called = NULL;
  for (int s = 0; s < p->nstages; s++)
    if (te_call_passes (&p->stages[s], t, true)
        || te_call_passes (&p->stages[s], t, false))
      {
        const te_call *c = p->stages[s].call;
        for (int i = 0; i < c->nargs; i++)
          {
            const te_call_arg *a = &c->args[i];
            if ((a->value && te_reads (a->value, t))
                || (a->offset && te_reads (a->offset, t)))
              return NULL;
            if (a->tensor != t)
              continue;
            if (!a->extent)
              return NULL;
            te_node *top = te_binary (p->ctx, TE_ADD, a->offset, a->extent);
            called = called ? te_binary (p->ctx, TE_MAX, called, top) : top;
          }
        if (!called)
          return NULL;
      }
  te_node *bound = extent_of_stmts (p, t);
  return called && bound ? te_binary (p->ctx, TE_MAX, bound, called) : bound;
}

bool
te_program_roles (te_program *p, te_diag *diag)
{
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (!tensor_role (p, t, diag))
        return false;
      if (t->optional && t->role != TE_ROLE_INPUT
          && t->role != TE_ROLE_UNUSED)
        return te_diag_set (diag, TE_DIAG_USER, t->loc, "'%s', which the "
                            "kernel tests against NULL, is written: an "
                            "optional output is not supported yet",
                            t->name);
    }
  int next = p->nparams;
  for (int i = 0; i < p->nparams; i++)
    {
      te_param *q = &p->params[i];
      q->shadow = (q->kind == TE_PK_FLOAT || q->kind == TE_PK_PTR_FLOAT)
                      ? next++
                      : -1;
    }
  return true;
}
