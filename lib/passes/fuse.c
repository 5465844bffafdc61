/* fuse.c -- inlining elementwise stages into their consumers.

   Before:  stage 0: for i < n:  t1[i] = a * x[i] + b;
            stage 1: for i < n:  t2[i] = 1 / (1 + exp (-t1[i]));
            stage 2: for i < n:  y[i] = tanh (t2[i] * c);
   After:   stage 0: for i < n:  y[i] = tanh (1 / (1 + exp (-(a * x[i] + b))) * c);

   A local array written by an injective stage and read by later stages
   at the element written in the same iteration needs neither storage nor
   a loop of its own: its value is substituted into every read.  The
   gradient of the fused stage then is one loop nest with no temporary
   (the rule of the FuseOps note: cheap injective work goes into its
   consumer).  The forward's own code is untouched; this only shapes the
   program the AD sees.

   1. A candidate is a local array T written by exactly one statement,
      unguarded, of a stage with no other statement writing it, whose
      value holds no reduction (reductions are not inlined into others).
   2. Every read of T must be in a later stage with as many loops, of the
      same extents, at the index T was written with, the counters renamed
      loop by loop.  A read inside a reduction's terms is not inlined.
   3. If T's value is not cheap (it calls a transcendental function) and
      more than one statement reads it, it stays: inlining would repeat
      the work.
   4. Substitute, drop the writing statement (and its stage if empty), and
      note the decision.

   Limits: a read at another element (a stencil over a temporary) keeps
   the temporary.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

/* Does N contain a call of a transcendental function or a reduction?  */
typedef struct cost_query
{
  bool costly, reduce;
} cost_query;

static void
cost_fn (te_node *n, void *data)
{
  cost_query *q = data;
  switch (n->op)
    {
    case TE_REDUCE:
      q->reduce = true;
      q->costly = true;
      break;
    case TE_EXP:
    case TE_EXP2:
    case TE_EXPM1:
    case TE_LOG:
    case TE_LOG2:
    case TE_LOG10:
    case TE_LOG1P:
    case TE_SIN:
    case TE_COS:
    case TE_TAN:
    case TE_ASIN:
    case TE_ACOS:
    case TE_ATAN:
    case TE_SINH:
    case TE_COSH:
    case TE_TANH:
    case TE_ERF:
    case TE_ERFC:
    case TE_POW:
    case TE_ATAN2:
    case TE_HYPOT:
    case TE_CBRT:
      q->costly = true;
      break;
    default:
      break;
    }
}

/* Does a reduction inside N read T?  */
typedef struct red_read_query
{
  const te_tensor *t;
  bool found;
} red_read_query;

static void
red_read_fn (te_node *n, void *data)
{
  red_read_query *q = data;
  if (n->op == TE_REDUCE && te_reads (n, q->t))
    q->found = true;
}

/* T's value VALUE, written at INDEX by stage W, as read by a load at
   READ_INDEX in stage R: VALUE with W's counters renamed to R's, or NULL
   if the load does not read the element of the same iteration.  */
static te_node *
renamed (te_ctx *ctx, const te_stage *w, te_node *index, te_node *value,
         const te_stage *r, te_node *read_index)
{
  return te_same_element (ctx, w->nloops, w->loops, index, value, r->nloops,
                          r->loops, read_index);
}

/* Steps 1-4 for local array T; true if it was inlined.  */
static bool
fuse_one (te_program *p, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  int ws = -1, wk = -1;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      if (p->stages[s].stmts[k].dst == t)
        {
          if (ws >= 0)
            return false;
          ws = s;
          wk = k;
        }
  if (ws < 0)
    return false;
  for (int s = 0; s < p->nstages; s++)
    if (te_call_passes (&p->stages[s], t, true))
      return false; /* a call needs it in memory */
  const te_stmt *w = &p->stages[ws].stmts[wk];
  if (w->guard || w->op != TE_SET || w->ninner || te_reads (w->value, t))
    return false;
  cost_query c = { false, false };
  te_walk (w->value, cost_fn, &c);
  if (c.reduce)
    return false;
  /* Step 2: every read, and where it is.  */
  int readers = 0;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        const te_stmt *st = &p->stages[s].stmts[k];
        if (s == ws && k == wk)
          continue;
        if (te_reads (st->index, t) || (st->guard && te_reads (st->guard, t)))
          return false;
        for (int j = 0; j < p->stages[s].nloops; j++)
          if (te_reads (p->stages[s].loops[j].extent, t))
            return false;
        te_node *loads[16];
        int nloads = te_loads_of (st->value, t, loads, 16);
        if (nloads < 0)
          return false;
        if (!nloads)
          continue;
        red_read_query rr = { t, false };
        te_walk (st->value, red_read_fn, &rr);
        if (s <= ws || rr.found)
          return false;
        for (int i = 0; i < nloads; i++)
          if (!renamed (ctx, &p->stages[ws], w->index, w->value,
                        &p->stages[s], loads[i]->args[0]))
            return false;
        /* What the value reads must not change before the read.  */
        for (int s2 = ws + 1; s2 <= s; s2++)
          if (p->stages[s2].call)
            return false;
        for (int s2 = ws + 1; s2 <= s; s2++)
          for (int k2 = 0; k2 < p->stages[s2].nstmts; k2++)
            if (te_reads (w->value, p->stages[s2].stmts[k2].dst))
              return false;
        readers++;
      }
  if (readers == 0 || (c.costly && readers > 1))
    return false;
  /* Step 4.  */
  for (int s = ws + 1; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        te_node *loads[16];
        int nloads = te_loads_of (st->value, t, loads, 16);
        for (int i = 0; i < nloads; i++)
          st->value = te_replace (
              ctx, st->value, loads[i],
              te_cast (ctx, t->type,
                       renamed (ctx, &p->stages[ws], w->index, w->value,
                                &p->stages[s], loads[i]->args[0])));
      }
  te_stage *src = &p->stages[ws];
  memmove (&src->stmts[wk], &src->stmts[wk + 1],
           (src->nstmts - wk - 1) * sizeof *src->stmts);
  src->nstmts--;
  te_program_note (p, "fuse: %s into its %d reader%s", t->name, readers,
                   readers > 1 ? "s" : "");
  return true;
}

bool
te_program_fuse (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (t->kind == TE_TK_LOCAL && fuse_one (p, t))
        {
          memmove (&p->tensors[i], &p->tensors[i + 1],
                   (p->ntensors - i - 1) * sizeof *p->tensors);
          p->ntensors--;
          i = -1; /* a fusion may enable another */
        }
    }
  te_program_drop_empty (p);
  return true;
}
