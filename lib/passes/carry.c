/* carry.c -- arrays a time loop carries: one row per step (the tape).

   Before:  double h[H];   for j: h[j] = 0;
            for t { for j: hn[j] = tanh (U h + ...); for j: h[j] = hn[j]; }
            stage 0: for j < H:         h[j] = 0;
            stage 1: for t < T, j < H:  hn[j] = tanh (sum (k < H; ..; U[j*H + k] * h[k]));
            stage 2: for t < T, j < H:  h[j] = hn[j];
            stage 3: for ():            return[0] = sum (t < T, j < H; 0; h[j] * h[j]);
   After:   stage 0: for j < H:         h[j] = 0;
            stage 1: for t < T, j < H:  hn[j] = tanh (sum (k < H; ..; U[j*H + k] * h[H*t + k]));
            stage 2: for t < T, j < H:  h[H + H*t + j] = hn[j];
            stage 3: for ():            return[0] = sum (t < T, j < H; 0; h[H + H*t + j] * ...);

   State arrays (an RNN's h, an LSTM's h and c, the positions and
   velocities of an Euler integrator) are written before a time loop and
   updated in place in every step; step t + 1 reads what step t wrote.
   The gradient needs every step's state, so the state becomes a
   recurrence with one row per step (DESIGN.md section 4b: state a loop
   carries becomes a tape), as the lifter does for carried scalars.

   1. A candidate S is a local array of known size or an array parameter.
      Its update U is the one stage inside a source loop L (U's outermost
      loop, the time loop) that writes S: one unguarded statement
      S[w] = e whose index uses no counter of L and runs densely over
      U's inner loops, from LO to HI (free of counters).
   2. The nest: the stages sharing L with U.  They read S at indices
      free of their counter of L, inside [LO, HI]; U reads S only at the
      element it writes (the lifter substituted what U stored, so a load
      there is the element's value before the step).  No other stage of
      the nest writes S.
   3. Before the nest one statement writes S, unguarded and densely over
      [LO, HI]: the initial state; reads between it and the nest read
      it.  A parameter that nothing writes first enters with its state
      (in-out); a stage before the nest copies it into the tape.
   4. After the nest nothing writes S; reads read the last step, except
      reads inside a reduction over a counter of L (a loss summed over
      the steps, which the lifter moved after the loop): they read the
      step of the place of their load in the loop's body (the lifter's
      te_timed_read), before U's store the step's input, after it its
      result.  A read whose place cannot be told is refused.  The
      dump notes which of the two a sum over the steps reads.  This
      pass runs before reduce.c's hoist: a sum nested in such a sum
      (loss += log (se) after se += exp (h[j]) in the step) keeps its
      loads there, where they tell their step, rather than going to a
      stage of its own (which read the last state after the loop, or
      became a stage of the nest that read the step's result even where
      the source read its input).
   5. Rewrite: rows of R = HI + 1 elements, max (T, 0) + 1 of them, T
      the count of L: row 0 the initial state, row t + 1 the state after
      step t.  The nest reads row t before U and in U, row t + 1 after
      it; U writes row t + 1.  A local S is its own tape; for a
      parameter, a local array S.tape is, and a stage after the nest
      copies the last row into S.  The dump notes each tape and its
      size.

   Inside a loop over the samples of a batch (loops that every stage
   accessing S runs in, np of them, around L; S a local array whose
   indices use none of their counters), every sample starts S anew: the
   tape has a block of (max (T, 0) + 1) R elements per sample, at the
   sample's number (row-major over those loops) times that size.

   The stages of the nest then read rows that earlier steps wrote:
   siblings.c runs two of them as one loop where it can, blocks.c runs a
   step's loops as one stage in the source's order where each reads all
   of what the one before wrote.

   Reads are bounded by the conditions on their paths (te_read_range:
   p[j - 1] behind j > 0 starts at p[0]).  When the initial state writes
   more than U (a stencil's interior updated, its boundary kept), [LO,
   HI] is the initial state's and U, the one statement of its stage
   over one inner loop, writes the whole row, the element it had where
   it wrote nothing (widen_update); with another statement in its stage
   the kernel is refused here.

   Limits: L must be the outermost loop of its nest but for the batch
   loops; S is updated by one statement of one stage per step and read
   within the range its initial state writes; no call passes S.  An array this pass leaves alone is
   refused later as before ("written by more than one loop nest").  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

#define MAX_LOADS 16
#define MAX_TIMED 8



/* What the analysis of one candidate found.  */
typedef struct carry
{
  te_program *p;
  te_tensor *s;        /* the state */
  int np;              /* the loops around the time loop (a batch) */
  int u;               /* its update stage ... */
  const te_stmt *w;    /* ... and statement */
  te_node *windex;     /* its index as lifted */
  int first, last;     /* the nest: stages FIRST..LAST, U among them */
  int init;            /* the stage of the initial state, or -1 */
  te_node *lo, *hi;    /* the elements of the state: those the initial
                          state writes, or without one those U writes */
  te_node *ulo, *uhi;  /* the elements U writes, inside [LO, HI] */
  te_node *rows;       /* R */
  te_node *final;      /* max (T, 0): the row of the last step */
  te_node *batch;      /* the number of the batch iteration, in U's
                          counters, and ... */
  te_node *nbatch;     /* ... their count (0 and 1 without a batch) */
  te_tensor *tape;
  te_diag *diag;
  bool refused;        /* DIAG is set */
  unsigned timed_noted; /* the dump's notes of sums over the steps:
                           bit 0 before the update, bit 1 after */
} carry;

/* Is every load of C->s in statement ST of stage S, with the loops of S
   from SKIP on and the reductions around it, inside [LO, HI]?  And, with
   AT non-NULL, at AT exactly?  */
static bool
loads_inside (carry *c, const te_stage *s, int skip, const te_stmt *st,
              const te_node *at)
{
  te_ctx *ctx = c->p->ctx;
  const te_stage *us = &c->p->stages[c->u];
  te_node *roots[3] = { st->value, st->index, st->guard };
  for (int r = 0; r < 3; r++)
    {
      te_node *loads[MAX_LOADS];
      int nl = roots[r] ? te_loads_of (roots[r], c->s, loads, MAX_LOADS) : 0;
      if (nl < 0)
        return false;
      for (int i = 0; i < nl; i++)
        {
          te_node *x = loads[i]->args[0];
          if (at)
            {
              if (x != at)
                return false;
              continue;
            }
          te_loop loops[2 * TE_MAX_LOOPS];
          int m = te_read_loops (c->p->nvars, s, skip, st->value, x, loops);
          te_node *rlo, *rhi;
          if (m < 0
              || !te_read_range (ctx, roots[r], r == 2 ? NULL : st->guard,
                                 c->s, x, m, loops, &rlo, &rhi)
              || !te_non_negative_where_run (
                  ctx, te_canon_int (ctx, te_sub (ctx, rlo, c->lo)), us, s)
              || !te_non_negative_where_run (
                  ctx, te_canon_int (ctx, te_sub (ctx, c->hi, rhi)), us, s))
            return false;
        }
    }
  return true;
}

/* Step 1: is statement W of stage U (an update inside its outermost
   loop) dense over U's inner loops, within [*LO, *HI] free of
   counters?  */
static bool
dense_update (carry *c, const te_stage *us, const te_stmt *w)
{
  te_ctx *ctx = c->p->ctx;
  if (w->guard || w->op != TE_SET || w->ninner)
    return false;
  te_node *lin, *count;
  int in = c->np + 1;
  if (!te_linearize (ctx, us->nloops - in, us->loops + in, &lin, &count)
      || !te_index_range (ctx, w->index, us->nloops - in, us->loops + in,
                          &c->lo, &c->hi)
      || te_canon_int (ctx, te_sub (ctx, w->index, c->lo)) != lin)
    return false;
  for (int k = 0; k < us->nloops; k++)
    if (te_uses_var (c->lo, us->loops[k].var)
        || te_uses_var (c->hi, us->loops[k].var)
        || te_uses_var (us->loops[c->np].extent, us->loops[k].var))
      return false;
  return true;
}

/* The loops of stage US that the other stages writing the local C->s
   (its initial state) run in too: a batch loop around the time loop,
   whose every iteration starts the state anew.  0 for a parameter (its
   state enters from the caller) or without another writer.  */
static int
batch_loops (carry *c, const te_stage *us)
{
  int np = -1;
  for (int s = 0; s < c->p->nstages && c->s->kind == TE_TK_LOCAL; s++)
    {
      const te_stage *st = &c->p->stages[s];
      if (st == us || !te_stage_writes (st, c->s))
        continue;
      int m = te_shared_loops (st, us);
      np = np < 0 || m < np ? m : np;
    }
  return np < 0 ? 0 : np;
}

/* Step 1: find the update: the one stage inside a source loop whose
   statement writes C->s at an index free of that loop's counter, and
   of the counters of the batch loops around it.  */
static bool
find_update (carry *c)
{
  te_program *p = c->p;
  c->u = -1;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          if (x->dst != c->s || !st->nloops)
            continue;
          int np = batch_loops (c, st);
          if (np >= st->nloops || !st->loop_ids[np])
            continue;
          bool free = true;
          for (int j = 0; j <= np; j++)
            free &= !te_uses_var (x->index, st->loops[j].var);
          if (!free)
            continue;
          if (c->u >= 0)
            return false;
          c->u = s;
          c->w = x;
          c->windex = x->index;
          c->np = np;
        }
    }
  return c->u >= 0 && (c->np == 0 || c->s->kind == TE_TK_LOCAL);
}

/* Is C->s carried at all (before any analysis that makes nodes, which
   would renumber the dump's expressions of kernels this pass leaves
   alone): read by a stage of the nest no later than the update, and, for
   a local array, written before the nest?  */
static bool
carried (carry *c)
{
  te_program *p = c->p;
  bool read = false, init = c->s->kind != TE_TK_LOCAL;
  for (int s = c->first; s <= c->u; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      read |= te_stmt_reads (&p->stages[s].stmts[k], c->s);
  for (int s = 0; s < c->first; s++)
    init |= te_stage_writes (&p->stages[s], c->s);
  return read && init;
}

/* The stages around the update that share its outermost loop.  */
static void
find_nest (carry *c)
{
  te_program *p = c->p;
  const te_stage *us = &p->stages[c->u];
  c->first = c->last = c->u;
  while (c->first > 0
         && te_shared_loops (&p->stages[c->first - 1], us) > c->np)
    c->first--;
  while (c->last + 1 < p->nstages
         && te_shared_loops (&p->stages[c->last + 1], us) > c->np)
    c->last++;
}

/* Step 2: the nest around the update, contiguous, and what it does with
   C->s.  */
static bool
check_nest (carry *c)
{
  te_program *p = c->p;
  const te_stage *us = &p->stages[c->u];
  for (int s = 0; s < p->nstages; s++)
    if ((s < c->first || s > c->last)
        && te_shared_loops (&p->stages[s], us) > c->np)
      return false;
  for (int s = c->first; s <= c->last; s++)
    {
      const te_stage *st = &p->stages[s];
      if (st->call && te_stage_accesses (st, c->s))
        return false;
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          if (x->dst == c->s && x != c->w)
            return false;
          if (!loads_inside (c, st, c->np + 1, x,
                             s == c->u ? c->w->index : NULL))
            return false;
          te_node *roots[3] = { x->value, x->index, x->guard };
          for (int r = 0; r < 3; r++)
            {
              te_node *loads[MAX_LOADS];
              int nl = roots[r] ? te_loads_of (roots[r], c->s, loads,
                                               MAX_LOADS)
                                : 0;
              for (int i = 0; i < nl; i++)
                for (int j = 0; j <= c->np; j++)
                  if (te_uses_var (loads[i]->args[0], st->loops[j].var))
                    return false;
            }
        }
    }
  return true;
}

/* The elements the one statement before the nest that writes the local
   C->s writes densely, when they include those U writes (a stencil's
   interior updated, its boundary kept) and U is the one statement of
   its stage, over one inner loop: [LO, HI] becomes theirs, and U will
   write all of them (widen_update).  */
static void
widen_to_initial (carry *c, bool *blocked)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  c->ulo = c->lo;
  c->uhi = c->hi;
  const te_stage *us = &p->stages[c->u];
  const te_stmt *w = NULL;
  const te_stage *ws = NULL;
  for (int s = 0; s < c->first; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      if (p->stages[s].stmts[k].dst == c->s)
        {
          if (w)
            return;
          w = &p->stages[s].stmts[k];
          ws = &p->stages[s];
        }
  te_node *lo, *hi;
  int np = c->np;
  if (!w || w->guard || w->op != TE_SET || ws->nloops < np
      || !te_dense (ctx, w->index, ws->nloops - np, ws->loops + np, &lo, &hi))
    return;
  for (int k = 0; k < ws->nloops; k++)
    if (te_uses_var (lo, ws->loops[k].var) || te_uses_var (hi, ws->loops[k].var))
      return;
  if ((lo != c->lo || hi != c->hi)
      && te_non_negative (ctx, te_canon_int (ctx, te_sub (ctx, c->lo, lo)))
      && te_non_negative (ctx, te_canon_int (ctx, te_sub (ctx, hi, c->hi))))
    {
      if (us->nloops != c->np + 2 || us->nstmts != 1)
        {
          *blocked = us->nstmts != 1;
          return;
        }
      c->lo = lo;
      c->hi = hi;
    }
}

/* Step 3: the initial state, and the stages between it and the nest,
   which read it inside [LO, HI].  Nothing reads the state before it is
   written (a parameter's entry values then are the initial state, and
   nothing else may read them).  */
static bool
check_before (carry *c)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  c->init = -1;
  for (int s = 0; s < c->first; s++)
    {
      const te_stage *st = &p->stages[s];
      if (!te_stage_accesses (st, c->s))
        continue;
      if (st->call)
        return false;
      bool writes = te_stage_writes (st, c->s);
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          if (te_stmt_reads (x, c->s)
              && (writes || c->init < 0
                  || !loads_inside (c, st, c->np, x, NULL)))
            return false;
          if (x->dst != c->s)
            continue;
          te_node *lin, *count, *lo, *hi;
          int np = c->np;
          if (c->init >= 0 || x->guard || x->op != TE_SET
              || !te_linearize (ctx, st->nloops - np, st->loops + np, &lin,
                                &count)
              || !te_index_range (ctx, x->index, st->nloops - np,
                                  st->loops + np, &lo, &hi)
              || lo != c->lo || hi != c->hi
              || te_canon_int (ctx, te_sub (ctx, x->index, lo)) != lin)
            return false;
          c->init = s;
        }
    }
  return c->init >= 0 || c->s->kind == TE_TK_PARAM;
}

/* ---- reads after the nest ---------------------------------------------- */

/* Where the tape of stage ST's batch iteration starts: its number times
   the rows of one sequence, (max (T, 0) + 1) R; 0 without a batch.  */
static te_node *
batch_offset (carry *c, const te_stage *st)
{
  te_ctx *ctx = c->p->ctx;
  const te_stage *us = &c->p->stages[c->u];
  te_node *b = te_rename_counters (ctx, c->batch, c->np, us->loops,
                                   st->loops);
  return te_canon_int (
      ctx, te_mul (ctx, b, te_mul (ctx, te_add (ctx, c->final,
                                                te_int (ctx, 1)),
                                   c->rows)));
}

/* The row of the state a load inside a reduction over counter VAR (a
   counter of the time loop) reads, from the lifter's record of where the
   loads are: VAR for the step's input, VAR + 1 for its result; NULL, with
   C->diag, when that cannot be told.  */
static te_node *
timed_row (carry *c, int var, te_loc loc)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  const te_stage *us = &p->stages[c->u];
  int after = -1;
  bool clear = c->w->pos != 0;
  for (int i = 0; clear && i < p->ntimed; i++)
    {
      const te_timed_read *r = &p->timed[i];
      if (r->tensor != c->s || r->var != var)
        continue;
      for (int k = c->np + 1; k < us->nloops; k++)
        clear &= r->loop_id != us->loop_ids[k];
      int a = r->pos > c->w->pos;
      clear &= after < 0 || after == a;
      after = a;
    }
  if (!clear || after < 0)
    {
      te_diag_set (c->diag, TE_DIAG_USER, loc,
                   "'%s' is read in a sum over the steps of the loop that "
                   "updates it, where it cannot be told which step it "
                   "reads; not supported yet",
                   c->s->name);
      te_diag_note (c->diag, "read '%s' in a loop of its own after the "
                             "loop that updates it in the step, or store "
                             "the state of every step in an array",
                    c->s->name);
      c->refused = true;
      return NULL;
    }
  if (!(c->timed_noted & (1u << after)))
    {
      c->timed_noted |= 1u << after;
      te_program_note (p, "tape: a sum over %s reads '%s' %s the step's "
                          "update",
                       p->var_names[var] ? p->var_names[var] : "the steps",
                       c->s->name, after ? "after" : "before");
    }
  te_node *v = te_var (ctx, var);
  return after ? te_add (ctx, v, te_int (ctx, 1)) : v;
}

/* The memo of the rewrite of loads of the state in one context: outside
   every reduction over the time loop (VAR -1), or inside one over VAR.  */
typedef struct after_memo
{
  int var;
  te_memo m;
} after_memo;

typedef struct after_rw
{
  carry *c;
  te_node *off; /* the stage's batch_offset, or NULL: BVARS tell it */
  int bvars[TE_MAX_LOOPS]; /* the counter of each batch loop here, or -1 */
  te_loc loc;
  after_memo memos[MAX_TIMED + 1];
  int nmemos;
  bool failed;
} after_rw;

static te_memo *
memo_for (after_rw *a, int var)
{
  for (int i = 0; i < a->nmemos; i++)
    if (a->memos[i].var == var)
      return &a->memos[i].m;
  if (a->nmemos == MAX_TIMED + 1)
    return NULL;
  a->memos[a->nmemos].var = var;
  memset (&a->memos[a->nmemos].m, 0, sizeof (te_memo));
  return &a->memos[a->nmemos++].m;
}

/* N with each load of the state at X made a load of the tape at ROW * R
   + X: ROW the last step outside reductions over the time loop, the
   step of the load inside one over counter VAR.  */
static te_node *
after_1 (after_rw *a, te_node *n, int var)
{
  carry *c = a->c;
  te_ctx *ctx = c->p->ctx;
  if (!n || a->failed)
    return n;
  te_memo *m = memo_for (a, var);
  if (!m)
    {
      a->failed = true;
      return n;
    }
  te_node *r = te_memo_get (m, n);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_REWRITE, 1);
  te_node *args[3] = { NULL, NULL, NULL };
  if (n->op == TE_LOAD && n->u.tensor == c->s)
    {
      te_node *row = var < 0 ? c->final : timed_row (c, var, a->loc);
      if (!row)
        {
          a->failed = true;
          return n;
        }
      te_node *x = after_1 (a, n->args[0], var);
      if (!a->off)
        {
          /* A sum over the samples read after the time loop (a loss
             summed over the batch): the batch counters are the sum's.  */
          const te_stage *us = &c->p->stages[c->u];
          te_node *b = c->batch;
          for (int k = 0; k < c->np; k++)
            {
              if (a->bvars[k] < 0)
                {
                  a->failed = true;
                  return n;
                }
              b = te_replace (ctx, b, te_var (ctx, us->loops[k].var),
                              te_var (ctx, a->bvars[k]));
            }
          a->off = te_canon_int (
              ctx, te_mul (ctx, b, te_mul (ctx, te_add (ctx, c->final,
                                                        te_int (ctx, 1)),
                                           c->rows)));
        }
      r = te_load (ctx, c->tape,
                   te_canon_int (ctx, te_add (ctx, a->off,
                                              te_add (ctx, te_mul (ctx, row,
                                                                   c->rows),
                                                      x))));
    }
  else if (n->op == TE_REDUCE)
    {
      int inner = var;
      const te_stage *us = &c->p->stages[c->u];
      int lid = us->loop_ids[c->np];
      after_rw b = *a;
      bool batch = false;
      for (int k = 0; k < n->u.red.nloops; k++)
        {
          int id = te_program_var_loop (c->p, n->u.red.loops[k].var);
          if (id == lid)
            inner = n->u.red.loops[k].var;
          for (int j = 0; j < c->np; j++)
            if (!a->off && id == us->loop_ids[j])
              {
                b.bvars[j] = n->u.red.loops[k].var;
                batch = true;
              }
        }
      args[0] = after_1 (a, n->args[0], var);
      if (batch)
        {
          /* Its terms in a context of their own: the batch counters
             are bound there.  */
          b.nmemos = 0;
          args[1] = after_1 (&b, n->args[1], inner);
          for (int i = 0; i < b.nmemos; i++)
            te_memo_free (&b.memos[i].m);
          a->failed |= b.failed;
        }
      else
        args[1] = after_1 (a, n->args[1], inner);
      r = te_rebuild (ctx, n, args);
    }
  else
    {
      bool changed = false;
      for (int i = 0; i < 3; i++)
        {
          args[i] = after_1 (a, n->args[i], var);
          changed |= args[i] != n->args[i];
        }
      r = changed ? te_rebuild (ctx, n, args) : n;
    }
  te_memo_put (m, n, r);
  return r;
}

/* Step 4: the reads after the nest, which must all be inside [LO, HI];
   nothing there may write the state.  With REWRITE, rewrite them.  */
static bool
after_nest (carry *c, bool rewrite)
{
  te_program *p = c->p;
  for (int s = c->last + 1; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      if (!te_stage_accesses (st, c->s))
        continue;
      if (st->call)
        return false;
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          if (x->dst == c->s)
            return false;
          if (!rewrite)
            {
              if (!loads_inside (c, st, c->np, x, NULL))
                return false;
              continue;
            }
          after_rw a;
          memset (&a, 0, sizeof a);
          a.c = c;
          const te_stage *us = &p->stages[c->u];
          int shared = te_shared_loops (st, us);
          a.off = shared >= c->np ? batch_offset (c, st) : NULL;
          for (int j = 0; j < c->np; j++)
            a.bvars[j] = j < shared ? st->loops[j].var : -1;
          a.loc = x->loc;
          x->value = after_1 (&a, x->value, -1);
          x->index = after_1 (&a, x->index, -1);
          x->guard = after_1 (&a, x->guard, -1);
          for (int i = 0; i < a.nmemos; i++)
            te_memo_free (&a.memos[i].m);
          if (a.failed)
            {
              if (!c->refused)
                {
                  te_diag_set (c->diag, TE_DIAG_USER, x->loc,
                               "'%s' is read here in too many sums over "
                               "steps; not supported yet",
                               c->s->name);
                  c->refused = true;
                }
              return false;
            }
        }
    }
  return true;
}

/* ---- the rewrite ------------------------------------------------------- */

/* N with every load of the state at X made a load of the tape at OFF +
   X.  */
static te_node *
shift_loads (carry *c, te_node *n, te_node *off)
{
  te_ctx *ctx = c->p->ctx;
  if (!n)
    return NULL;
  te_node *loads[MAX_LOADS];
  int nl = te_loads_of (n, c->s, loads, MAX_LOADS);
  for (int i = 0; i < nl; i++)
    n = te_replace (
        ctx, n, loads[i],
        te_load (ctx, c->tape,
                 te_canon_int (ctx, te_add (ctx, off, loads[i]->args[0]))));
  return n;
}

/* Rewrite the statements of stage S, reading the tape at OFF + X.  */
static void
shift_stage (carry *c, te_stage *st, te_node *off)
{
  for (int k = 0; k < st->nstmts; k++)
    {
      te_stmt *x = &st->stmts[k];
      x->value = shift_loads (c, x->value, off);
      x->guard = shift_loads (c, x->guard, off);
      x->index = shift_loads (c, x->index, off);
    }
}

/* A new stage at position AT over fresh copies of the update's inner
   loops, with one statement DST[w] = VALUE (VALUE of a load of the tape
   or of the state at OFF + w); the stages from AT on move up one.  */
static void
copy_stage (carry *c, int at, te_tensor *dst, te_tensor *src, te_node *off)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  const te_stage *us = &p->stages[c->u];
  int n = us->nloops - 1;
  te_loop from[TE_MAX_LOOPS] = { { 0 } }, to[TE_MAX_LOOPS] = { { 0 } };
  te_loc loc = c->w->loc;
  for (int k = 0; k < n; k++)
    {
      from[k] = us->loops[k + 1];
      to[k] = (te_loop) {
        .var = te_program_new_var (p, p->var_names[from[k].var]) };
    }
  for (int k = 0; k < n; k++)
    to[k].extent = te_canon_int (
        ctx, te_rename_counters (ctx, from[k].extent, n, from, to));
  te_node *w = te_canon_int (ctx, te_rename_counters (ctx, c->windex, n,
                                                      from, to));
  te_stage *s = te_program_insert_stage (p, at, loc);
  s->nest = -1000 - p->nstages;
  for (int k = 0; k < n; k++)
    te_stage_add_loop (s, to[k].var, to[k].extent);
  te_node *read = te_load (ctx, src,
                           te_canon_int (ctx, te_add (ctx, off, w)));
  te_stage_add_stmt (p, s, dst, w, TE_SET, read, NULL, loc);
}

/* U, dense over [ULO, UHI] inside [LO, HI], writes every element of
   the row: where it wrote nothing before, the element it had (a
   stencil's boundary): S[LO + v] = ULO <= LO + v <= UHI ? e : S[LO + v]
   over v < HI - LO + 1, so each row of the tape is whole.  */
static void
widen_update (carry *c)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  if (c->ulo == c->lo && c->uhi == c->hi)
    return;
  te_stage *us = &p->stages[c->u];
  te_stmt *w = &us->stmts[0];
  te_loop *l = &us->loops[c->np + 1];
  te_node *v = te_var (ctx, l->var);
  te_node *from = te_canon_int (ctx, te_sub (ctx, c->ulo, c->lo));
  te_node *to = te_canon_int (ctx, te_sub (ctx, c->uhi, c->lo));
  te_node *value = te_replace (ctx, w->value, v, te_sub (ctx, v, from));
  te_node *in = te_binary (ctx, TE_AND, te_binary (ctx, TE_LE, from, v),
                           te_binary (ctx, TE_LE, v, to));
  w->index = te_canon_int (ctx, te_add (ctx, c->lo, v));
  w->value = te_canon_loads (
      ctx, te_select (ctx, in, value, te_load (ctx, c->s, w->index)));
  l->extent = te_canon_int (
      ctx, te_add (ctx, te_sub (ctx, c->hi, c->lo), te_int (ctx, 1)));
  c->w = w;
  c->windex = w->index;
  te_program_note (p, "tape: the update of '%s' writes %s to %s; each "
                      "step keeps the other elements, to %s",
                   c->s->name, te_node_string (p, c->ulo),
                   te_node_string (p, c->uhi), te_node_string (p, c->hi));
}

/* Step 5.  */
static void
rewrite (carry *c)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  te_node *one = te_int (ctx, 1);
  for (int s = c->first; s <= c->last; s++)
    {
      te_stage *st = &p->stages[s];
      te_node *t = te_var (ctx, st->loops[c->np].var);
      te_node *row = s <= c->u ? t : te_add (ctx, t, one);
      te_node *boff = batch_offset (c, st);
      te_node *off = te_canon_int (
          ctx, te_add (ctx, boff, te_mul (ctx, row, c->rows)));
      if (s == c->u)
        {
          /* The update writes the next row; its statement moves to the
             tape (its index rewritten with the loads).  */
          for (int k = 0; k < st->nstmts; k++)
            if (&st->stmts[k] == c->w)
              {
                te_stmt *x = &st->stmts[k];
                x->dst = c->tape;
                x->index = te_canon_int (
                    ctx, te_add (ctx, boff,
                                 te_add (ctx,
                                         te_mul (ctx, te_add (ctx, t, one),
                                                 c->rows),
                                         x->index)));
                c->w = x;
              }
        }
      shift_stage (c, st, off);
    }
  if (c->init >= 0)
    for (int s = c->init; s < c->first; s++)
      {
        te_stage *st = &p->stages[s];
        te_node *boff = batch_offset (c, st);
        for (int k = 0; k < st->nstmts; k++)
          if (st->stmts[k].dst == c->s)
            {
              st->stmts[k].dst = c->tape;
              st->stmts[k].index = te_canon_int (
                  ctx, te_add (ctx, boff, st->stmts[k].index));
            }
        if (s > c->init)
          shift_stage (c, st, boff);
      }
}

/* Steps 1 to 5 for tensor S; false, leaving P alone, when S is no state
   of a time loop this pass handles (and C->refused when it is refused).  */
static bool
carry_1 (carry *c)
{
  te_program *p = c->p;
  te_ctx *ctx = p->ctx;
  te_tensor *s = c->s;
  if ((s->kind == TE_TK_LOCAL && !s->size)
      || (s->kind != TE_TK_LOCAL && s->kind != TE_TK_PARAM)
      || !te_type_is_float (s->type) || !find_update (c))
    return false;
  find_nest (c);
  if (!carried (c) || !dense_update (c, &p->stages[c->u], c->w))
    return false;
  bool blocked = false;
  widen_to_initial (c, &blocked);
  if (blocked && !check_nest (c))
    {
      te_diag_set (c->diag, TE_DIAG_USER, c->w->loc,
                   "'%s' is a state the time loop carries, updated in "
                   "part of its elements by a loop that updates another "
                   "array too; not supported yet",
                   s->name);
      te_diag_note (c->diag, "the elements the update leaves are kept "
                             "from step to step where '%s' is the one "
                             "array its loop updates",
                    s->name);
      c->refused = true;
      return false;
    }
  if (!check_nest (c)
      || !check_before (c) || !after_nest (c, false))
    return false;
  const te_stage *us = &p->stages[c->u];
  if (!te_linearize (ctx, c->np, us->loops, &c->batch, &c->nbatch))
    return false;
  c->rows = te_canon_int (ctx, te_add (ctx, c->hi, te_int (ctx, 1)));
  c->final = te_canon_int (
      ctx, te_binary (ctx, TE_MAX, us->loops[c->np].extent, te_int (ctx, 0)));
  te_node *size = te_canon_int (
      ctx, te_mul (ctx, c->nbatch,
                   te_mul (ctx, te_add (ctx, c->final, te_int (ctx, 1)),
                           c->rows)));
  if (s->kind == TE_TK_LOCAL)
    c->tape = s;
  else
    {
      char name[256];
      snprintf (name, sizeof name, "%s.tape", s->name);
      c->tape = te_program_add_tensor (p, name, s->type, TE_TK_LOCAL, -1,
                                       s->loc);
    }
  /* Reads after the nest first: they may be refused, and a local state
     is its own tape, whose loads the rest rewrites.  */
  te_node *old_size = s->size;
  s->size = size;
  c->tape->size = size;
  if (!after_nest (c, true))
    {
      s->size = old_size;
      return false;
    }
  const char *tvar = p->var_names[us->loops[c->np].var];
  c->tape->batch_tape = c->np > 0;
  widen_update (c);
  rewrite (c);
  if (s->kind == TE_TK_PARAM)
    {
      s->size = NULL;
      int last = c->last, first = c->first;
      te_node *off = te_canon_int (ctx, te_mul (ctx, c->final, c->rows));
      copy_stage (c, last + 1, s, c->tape, off);
      if (c->init < 0)
        copy_stage (c, first, c->tape, s, te_int (ctx, 0));
    }
  te_program_note (p, "tape: '%s', carried by the loop over %s, keeps its "
                      "value in every iteration%s%s: %s elements",
                   s->name, tvar ? tvar : "its counter",
                   c->tape != s ? " in " : "",
                   c->tape != s ? c->tape->name : "",
                   te_node_string (p, size));
  return true;
}

bool
te_program_carry (te_program *p, te_diag *diag)
{
  int n = p->ntensors;
  for (int i = 0; i < n; i++)
    {
      carry c;
      memset (&c, 0, sizeof c);
      c.p = p;
      c.s = p->tensors[i];
      c.diag = diag;
      carry_1 (&c);
      if (c.refused)
        return false;
    }
  return true;
}
