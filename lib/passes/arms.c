/* arms.c -- the loop nests of the two arms of an if/else that write the
   same elements become one nest.

   Before:  if (bias) for (o) y[o] = bias[o]; else for (o) y[o] = 0;
            stage 0: for o < m:  if (nonnull (bias)) y[o] = bias[o];
            stage 1: for o < m:  if (!nonnull (bias)) y[o] = 0;
   After:   stage 0: for o < m:  y[o] = select (!nonnull (bias), 0, bias[o]);

   The lifter gives each loop a stage of its own, so an array that the
   two arms of an if/else write in loops of their own (or one arm with a
   memset) has two writers, which roles.c refuses and the passes between
   cannot reason about (an accumulation into it afterwards, its extent).
   Stages A and a later B are joined when

   1. each is one statement writing T, over loops of the same extents, at
      the same index once B's counters are named as A's (te_same_element);
   2. their guards, B's in A's counters, cannot both hold
      (te_guards_exclusive), so that in each iteration at most one of them
      writes; and neither reads T;
   3. no stage between them accesses T or writes what B reads (B's
      statement moves up to A).

   The joined statement is A's, its value select (B's guard, B's value,
   A's value) under the disjunction of the guards (te_guard_or: true for
   an if/else).  Each join is noted.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

/* Condition 3: do the stages strictly between A and B leave T and what
   WB reads alone?  */
static bool
between_apart (const te_program *p, int a, int b, const te_tensor *t,
               const te_stmt *wb)
{
  for (int s = a + 1; s < b; s++)
    {
      const te_stage *m = &p->stages[s];
      if (m->call || te_stage_accesses (m, t))
        return false;
      for (int k = 0; k < m->nstmts; k++)
        if (te_stmt_reads (wb, m->stmts[k].dst))
          return false;
    }
  return true;
}

/* Join stage B into stage A if conditions 1 to 3 hold.  */
static bool
join (te_program *p, int a, int b)
{
  te_ctx *ctx = p->ctx;
  te_stage *sa = &p->stages[a], *sb = &p->stages[b];
  if (sa->call || sb->call || sa->nstmts != 1 || sb->nstmts != 1
      || sa->reversed != sb->reversed || sa->stmts[0].ninner
      || sb->stmts[0].ninner)
    return false;
  te_stmt *wa = &sa->stmts[0], *wb = &sb->stmts[0];
  te_tensor *t = wa->dst;
  if (wb->dst != t || !wa->guard || !wb->guard || wa->op != TE_SET
      || wb->op != TE_SET || te_stmt_reads (wa, t) || te_stmt_reads (wb, t))
    return false;
  te_node *vb = te_same_element (ctx, sb->nloops, sb->loops, wb->index,
                                 wb->value, sa->nloops, sa->loops, wa->index);
  if (!vb)
    return false;
  te_node *gb = te_rename_counters (ctx, wb->guard, sb->nloops, sb->loops,
                                    sa->loops);
  if (!te_guards_exclusive (ctx, wa->guard, gb) || !between_apart (p, a, b, t,
                                                                  wb))
    return false;
  wa->value = te_select (ctx, gb, vb, wa->value);
  wa->guard = te_guard_or (ctx, wa->guard, gb);
  if (wa->guard->op == TE_CONST && wa->guard->u.i)
    wa->guard = NULL;
  sb->nstmts = 0;
  te_program_note (p, "arms: the nests writing %s under conditions that "
                      "exclude each other are one",
                   t->name);
  return true;
}

bool
te_program_join_arms (te_program *p, te_diag *diag)
{
  (void) diag;
  bool any = false;
  for (int a = 0; a < p->nstages; a++)
    for (int b = a + 1; b < p->nstages; b++)
      if (!te_stage_empty (&p->stages[b]) && join (p, a, b))
        any = true;
  if (any)
    te_program_drop_empty (p);
  return true;
}
