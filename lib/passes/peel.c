/* peel.c -- a loop whose first iteration is a case of its own.

   Before:  stage 0: for i < n:  y[i] = select (i == 0, x[0], y[i - 1] + x[i]);
   After:   stage 0: for ():     if (n > 0) y[0] = x[0];
            stage 1: for i < n - 1:  y[1 + i] = y[i] + x[1 + i];

   A recurrence is often seeded by its own loop's first iteration
   (i == 0 ? seed : step).  Its read of the previous element sits in the
   arm the first iteration does not take, but the analysis of what a
   statement reads does not look into arms: the read of y[-1] would make
   the recurrence start from an element nobody wrote.  Peeling the first
   iteration off gives the seed a statement of its own and the loop a
   read of elements only earlier iterations wrote.

   A stage qualifies when it has one statement whose value is
   select (v == 0, A, B) for one of its counters v.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

/* Is C the test v == 0 for a counter of stage S?  Sets *K.  */
static bool
first_iteration_test (const te_stage *s, const te_node *c, int *k)
{
  if (c->op != TE_EQ)
    return false;
  for (int i = 0; i < 2; i++)
    {
      const te_node *v = c->args[i], *z = c->args[1 - i];
      while (v->op == TE_CAST)
        v = v->args[0];
      if (v->op != TE_VAR || !te_is_const (z, 0))
        continue;
      for (int j = 0; j < s->nloops; j++)
        if (s->loops[j].var == v->u.index)
          {
            *k = j;
            return true;
          }
    }
  return false;
}

static bool
peel (te_program *p, int si)
{
  te_ctx *ctx = p->ctx;
  te_stage *s = &p->stages[si];
  int k;
  if (s->call || s->nstmts != 1 || s->stmts[0].ninner || s->stmts[0].guard
      || s->stmts[0].value->op != TE_SELECT
      || !first_iteration_test (s, s->stmts[0].value->args[0], &k))
    return false;
  const te_stmt *st = &s->stmts[0];
  te_node *v = te_var (ctx, s->loops[k].var);
  te_node *ext = s->loops[k].extent;
  for (int j = 0; j < s->nloops; j++)
    if (j != k && te_uses_var (ext, s->loops[j].var))
      return false;
  /* The first iteration, where the loop runs.  */
  te_stage seed = *s;
  seed.nstmts = 0;
  seed.stmts = NULL;
  seed.nloops = 0;
  for (int j = 0; j < s->nloops; j++)
    if (j != k)
      {
        seed.loops[seed.nloops] = s->loops[j];
        seed.loops[seed.nloops].extent
            = te_canon_int (ctx, te_replace (ctx, s->loops[j].extent, v,
                                             te_int (ctx, 0)));
        seed.loop_ids[seed.nloops++] = s->loop_ids[j];
      }
  te_node *zero = te_int (ctx, 0);
  te_node *runs = te_binary (ctx, TE_GT, ext, zero);
  te_node *seed_index = te_canon_int (ctx, te_replace (ctx, st->index, v,
                                                       zero));
  te_node *seed_value
      = te_canon_loads (ctx, te_replace (ctx, st->value->args[1], v, zero));
  /* The other iterations: v + 1 for v.  */
  te_node *next = te_add (ctx, v, te_int (ctx, 1));
  te_stage rest = *s;
  rest.stmts = NULL;
  rest.nstmts = 0;
  rest.loops[k].extent = te_canon_int (ctx, te_sub (ctx, ext,
                                                    te_int (ctx, 1)));
  for (int j = k + 1; j < s->nloops; j++)
    rest.loops[j].extent = te_canon_int (
        ctx, te_replace (ctx, s->loops[j].extent, v, next));
  te_node *rest_index = te_canon_int (ctx, te_replace (ctx, st->index, v,
                                                       next));
  te_node *rest_value
      = te_canon_loads (ctx, te_replace (ctx, st->value->args[2], v, next));
  te_tensor *dst = st->dst;
  te_store op = st->op;
  te_loc loc = st->loc;
  /* SI becomes the seed, the rest goes right after it.  */
  te_program_insert_stage (p, si, loc);
  p->stages[si] = seed;
  p->stages[si + 1] = rest;
  te_stage_add_stmt (p, &p->stages[si], dst, seed_index, op, seed_value,
                     runs, loc);
  te_stage_add_stmt (p, &p->stages[si + 1], dst, rest_index, op, rest_value,
                     NULL, loc);
  te_program_note (p, "peel: the first iteration of the loop writing %s",
                   dst->name);
  return true;
}

bool
te_program_peel (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int s = 0; s < p->nstages; s++)
    if (peel (p, s))
      s++;
  return true;
}
