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
   Each block is noted.  */

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

bool
te_program_blocks (te_program *p, te_diag *diag)
{
  (void) diag;
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
      make_block (p, s, last, np);
      any = true;
      s = last;
    }
  if (any)
    te_program_drop_empty (p);
  return true;
}
