/* blocks.c -- the inner loops of one step of a recurrence run in the
   source's order: one stage over the step's loops, a loop per statement.

   Before:  stage 1: for t < T, j < H:  r[H*t + j] = sigm (sum (k < H; Ur[..] * h[H*t + k]));
            stage 2: for t < T, j < H:  h[H + H*t + j] = tanh (sum (k < H; Uh[..] * r[H*t + k] * h[H*t + k]));
   After:   stage 1: for (fused) t < T:
                       for j < H:  r[H*t + j] = sigm (...);
                       for j < H:  h[H + H*t + j] = tanh (...);

   The lifter gives each inner loop of an outer loop a stage of its own,
   run to its end before the next.  A recurrence whose step runs several
   inner loops, each reading all of what the one before it wrote (a GRU:
   the reset gate enters the candidate's matrix product), cannot run one
   loop per element (siblings.c); the step's first loop reads the state
   that its last loop wrote in the step before (carry.c gave the state a
   row per step).  roles.c accepts such a read when the two loops share
   their P outermost source loops and the read, at an iteration of them,
   sees only what earlier iterations wrote, and marks the stages
   (te_stage.block_end).  Here the marked stages, from the first to the
   last (and the stages between, which run inside the same P loops)
   become one fused, recurrent stage over those P loops, each statement
   with its stage's other loops as loops of its own: iteration by
   iteration of the P loops, the statements in order, as the source runs
   them.  ad.c runs its gradient backwards in one stage (a recurrence).
   Each block is noted.

   A statement whose one loop of its own carries a recurrence (a scalar
   carried by the outer loop and updated in an inner one, `for j { for i
   s += x[j*n + i] * s; y[j] = s; }', a scratch row seeded and recurred
   in every step, c[0] = g[0]; c[j] = c[j-1] / 2 + g[j]) reads, in one
   iteration of the P loops, what its earlier iterations of its own loop
   wrote: when it reads its destination once, unguarded, outside any
   sum, the element at a constant distance behind the one it writes
   (own_recurrence), it is marked (te_stmt.own_recurrent) and ad.c runs
   its adjoints down that loop.  The statements of one inner loop, which
   the block runs one after the other over all its iterations, must not
   read what another of them writes in other iterations (cross_read_ok:
   two scalars updated from each other, s += x * u; u = u / 2 + s).

   Limits: refused are other recurrences over a statement's own loops
   (two loops of its own, two reads of its destination) and recurrences
   through several statements of one inner loop.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

/* Stages FIRST to LAST of P, sharing their P outermost loops, as one
   stage at FIRST.  */
static void
make_block (te_program *p, int first, int last, int np)
{
  te_ctx *ctx = p->ctx;
  te_stage *a = &p->stages[first];
  te_stage tmp;
  memset (&tmp, 0, sizeof tmp);
  for (int s = first; s <= last; s++)
    {
      te_stage *b = &p->stages[s];
      for (int k = 0; k < b->nstmts; k++)
        {
          const te_stmt *x = &b->stmts[k];
          int n = b->nloops - np + x->ninner;
          te_loop *inner = n ? te_alloc (ctx, n * sizeof *inner) : NULL;
          memcpy (inner, b->loops + np, (b->nloops - np) * sizeof *inner);
          if (x->ninner)
            memcpy (inner + b->nloops - np, x->inner,
                    x->ninner * sizeof *inner);
          for (int j = 0; j < n; j++)
            inner[j].extent = te_rename_counters (ctx, inner[j].extent, np,
                                                  b->loops, a->loops);
          te_stmt *y = te_stage_add_stmt (
              p, &tmp, x->dst,
              te_canon_int (ctx, te_rename_counters (ctx, x->index, np,
                                                     b->loops, a->loops)),
              x->op, te_rename_counters (ctx, x->value, np, b->loops,
                                         a->loops),
              x->guard ? te_rename_counters (ctx, x->guard, np, b->loops,
                                             a->loops)
                       : NULL,
              x->loc);
          y->ninner = n;
          y->inner = inner;
          y->own_recurrent = x->own_recurrent;
          y->pos = x->pos;
          y->pos_first = x->pos_first;
        }
      if (s > first)
        b->nstmts = 0;
      b->block_end = 0;
    }
  te_program_note (p, "block: the loops writing %s to %s run in the "
                      "source's order, one step of a recurrence over %d "
                      "outer loop%s at a time",
                   tmp.stmts[0].dst->name, tmp.stmts[tmp.nstmts - 1].dst->name,
                   np, np == 1 ? "" : "s");
  a->stmts = tmp.stmts;
  a->nstmts = tmp.nstmts;
  a->nloops = np;
  for (int k = np; k < TE_MAX_LOOPS; k++)
    a->loop_ids[k] = 0;
  a->fused = true;
  a->recurrent = true;
}

/* The loads of one tensor in a statement's value, for te_walk.  */
typedef struct self_reads
{
  const te_tensor *t;
  int n;
  te_node *index[16];
} self_reads;

static void
collect_read (te_node *n, void *data)
{
  self_reads *r = data;
  if (n->op == TE_LOAD && n->u.tensor == r->t && r->n < 16)
    r->index[r->n++] = n->args[0];
}

/* Does statement X of stage S, in a block over the P outermost loops of
   S, read in one iteration of them an element of its destination that
   another iteration of its own loops (S's loops from the P-th on, and
   X's) writes?  Also true when that cannot be told.  */
static bool
inner_recurrence (te_program *p, const te_stage *s, const te_stmt *x, int np)
{
  te_ctx *ctx = p->ctx;
  self_reads r;
  r.t = x->dst;
  r.n = 0;
  te_walk (x->value, collect_read, &r);
  if (x->guard)
    te_walk (x->guard, collect_read, &r);
  if (r.n == 16)
    return true;
  te_loop wl[2 * TE_MAX_LOOPS], rl[2 * TE_MAX_LOOPS];
  int nw = te_access_loops (p->nvars, s, np, x, x->index, true, wl);
  if (nw == 0)
    return false; /* one element per iteration of the P loops */
  te_node *wlo, *whi;
  if (r.n && (nw < 0 || !te_index_range (ctx, x->index, nw, wl, &wlo, &whi)))
    return true;
  for (int i = 0; i < r.n; i++)
    {
      int nr = te_access_loops (p->nvars, s, np, x, r.index[i], false, rl);
      if (nr == nw && te_canon_int (ctx, r.index[i])
                          == te_canon_int (ctx, x->index))
        continue; /* the element the iteration itself writes */
      te_node *rlo, *rhi;
      if (nr < 0
          || !te_read_range (ctx, x->value, x->guard, x->dst, r.index[i], nr,
                             rl, &rlo, &rhi))
        return true;
      te_node *below = te_canon_int (
          ctx, te_sub (ctx, te_sub (ctx, wlo, rhi), te_int (ctx, 1)));
      te_node *above = te_canon_int (
          ctx, te_sub (ctx, te_sub (ctx, rlo, whi), te_int (ctx, 1)));
      if (!te_non_negative (ctx, below) && !te_non_negative (ctx, above))
        return true;
    }
  return false;
}

static bool
has_reduce (te_node *n)
{
  if (!n)
    return false;
  if (n->op == TE_REDUCE)
    return true;
  for (int i = 0; i < 3; i++)
    if (has_reduce (n->args[i]))
      return true;
  return false;
}

/* Is statement X of stage S, in a block over S's P outermost loops, one
   whose adjoints ad.c can run backwards over its own loop: one loop of
   its own (S's loops from the P-th on and X's), an unguarded store that
   reads its destination once, outside any sum, at an element below
   (above) the one it writes, which rises (falls) with the loop's
   counter: so it reads what the loop's earlier iterations wrote, or
   what the block's earlier statements did (roles.c checked those), and
   each iteration's adjoint is complete when the later ones have run.  */
static bool
own_recurrence (te_program *p, const te_stage *s, const te_stmt *x, int np)
{
  te_ctx *ctx = p->ctx;
  te_loop wl[2 * TE_MAX_LOOPS];
  int nw = te_access_loops (p->nvars, s, np, x, x->index, true, wl);
  if (nw != 1 || x->guard || x->op != TE_SET || has_reduce (x->value))
    return false;
  self_reads r;
  r.t = x->dst;
  r.n = 0;
  te_walk (x->value, collect_read, &r);
  if (r.n != 1)
    return false;
  te_node *c = te_coefficient (ctx, x->index, wl[0].var);
  te_node *d = te_canon_int (ctx, te_sub (ctx, x->index, r.index[0]));
  if (c->op != TE_CONST || d->op != TE_CONST)
    return false;
  /* A rising write reads below it, within the steps already made.  */
  return (c->u.i == 1 && d->u.i > 0) || (c->u.i == -1 && d->u.i < 0);
}

/* Statements X and Y of stage S (X reads what Y writes), in a block
   over S's P outermost loops, where each will run its own loops to
   their end before the next statement: does X see what it sees in the
   source, where the two alternate in every iteration of those loops?
   So when X reads only the element Y writes in the same iteration (Y
   before X, the loops the same), or, in one iteration of the P loops,
   only elements Y does not write in it (a tape's earlier row).  */
static bool
cross_read_ok (te_program *p, const te_stage *s, const te_stmt *x,
               const te_stmt *y, int np)
{
  te_ctx *ctx = p->ctx;
  self_reads r;
  r.t = y->dst;
  r.n = 0;
  te_walk (x->value, collect_read, &r);
  if (x->guard)
    te_walk (x->guard, collect_read, &r);
  if (r.n == 16)
    return false;
  if (r.n == 0)
    return true;
  te_loop wl[2 * TE_MAX_LOOPS], rl[2 * TE_MAX_LOOPS];
  te_node *wlo, *whi;
  int nw = te_access_loops (p->nvars, s, np, y, y->index, true, wl);
  if (nw < 0 || !te_index_range (ctx, y->index, nw, wl, &wlo, &whi))
    return false;
  for (int i = 0; i < r.n; i++)
    {
      if (y < x && !x->ninner && !y->ninner
          && te_canon_int (ctx, r.index[i]) == te_canon_int (ctx, y->index))
        continue;
      int nr = te_access_loops (p->nvars, s, np, x, r.index[i], false, rl);
      te_node *rlo, *rhi;
      if (nr < 0
          || !te_read_range (ctx, x->value, x->guard, y->dst, r.index[i], nr,
                             rl, &rlo, &rhi))
        return false;
      te_node *below = te_canon_int (
          ctx, te_sub (ctx, te_sub (ctx, wlo, rhi), te_int (ctx, 1)));
      te_node *above = te_canon_int (
          ctx, te_sub (ctx, te_sub (ctx, rlo, whi), te_int (ctx, 1)));
      if (!te_non_negative (ctx, below) && !te_non_negative (ctx, above))
        return false;
    }
  return true;
}

bool
te_program_blocks (te_program *p, te_diag *diag)
{
  bool any = false;
  for (int s = 0; s < p->nstages; s++)
    {
      if (!p->stages[s].block_end)
        continue;
      int last = p->stages[s].block_end;
      for (int k = s + 1; k <= last; k++)
        if (p->stages[k].block_end > last)
          last = p->stages[k].block_end;
      int np = TE_MAX_LOOPS;
      for (int k = s + 1; k <= last; k++)
        if (!te_stage_empty (&p->stages[k]))
          {
            int n = te_shared_loops (&p->stages[s], &p->stages[k]);
            if (n < np)
              np = n;
          }
      te_assert (np > 0 && np < TE_MAX_LOOPS);
      for (int k = s; k <= last; k++)
        for (int j = 0; j < p->stages[k].nstmts; j++)
          for (int i = 0; i < p->stages[k].nstmts; i++)
            {
              const te_stage *st = &p->stages[k];
              const te_stmt *x = &st->stmts[j], *y = &st->stmts[i];
              if (i == j || (st->nloops == np && !x->ninner && !y->ninner)
                  || cross_read_ok (p, st, x, y, np))
                continue;
              te_diag_set (diag, TE_DIAG_USER, x->loc,
                           "'%s' is updated in an inner loop from '%s', "
                           "which another statement of that loop updates "
                           "in other iterations; not supported yet",
                           x->dst->name, y->dst->name);
              te_diag_note (diag, "the gradient runs each statement of "
                                  "this loop through all its iterations "
                                  "before the next statement; a "
                                  "recurrence through several statements "
                                  "of an inner loop of a step is not "
                                  "supported yet");
              return false;
            }
      for (int k = s; k <= last; k++)
        for (int j = 0; j < p->stages[k].nstmts; j++)
          {
            te_stmt *x = &p->stages[k].stmts[j];
            if (!inner_recurrence (p, &p->stages[k], x, np))
              continue;
            if (own_recurrence (p, &p->stages[k], x, np))
              {
                x->own_recurrent = true;
                continue;
              }
            te_diag_set (diag, TE_DIAG_USER, x->loc,
                         "'%s' is updated in an inner loop from its values "
                         "of that loop's earlier iterations, and carried "
                         "by the loop around it; not supported yet",
                         x->dst->name);
            te_diag_note (diag, "reset '%s' at the start of every "
                                "iteration of the outer loop, or keep each "
                                "iteration's value in an array element",
                          x->dst->name);
            return false;
          }
      make_block (p, s, last, np);
      any = true;
      s = last;
    }
  if (any)
    te_program_drop_empty (p);
  return true;
}
