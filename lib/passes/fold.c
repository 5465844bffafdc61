/* fold.c -- an adjoint temporary read once, element by element, is the
   sum of its contributions where it is read.

   Before:  for n, j:  d_p[j + V*n] += g[j + V*n] / s[n];
            for n:     d1[n] += d_s[n];
            for n, j:  d_p[j + V*n] += d1[n];
            for n, j:  d_x[j + V*n] += y[j + V*n] * d_p[j + V*n];
   After:   for n:     d1[n] += d_s[n];
            for n, j:  d_x[j + V*n] += y[j + V*n] * (g[j + V*n] / s[n] + d1[n]);
   The softmax's and the cross-entropy's gradient then run two passes
   over a row (the sum, then the update), as an expert's do, instead of
   four over a row-sized temporary.

   1. A candidate is a local array T that statements only add to, each
      with no loops of its own and no guard, every iteration of each at
      its own element (te_rows_apart), and that one statement R, in a
      later stage and outside a reduction, reads, at one element.
   2. Each contribution's value, renamed to R's loops, is what it added
      to the element R's iteration reads (te_same_element: the same
      extents, the element that iteration wrote).
   3. Nothing a contribution reads is written from its stage on, up to
      and including R's stage: its value is the same where R reads.
   Then R reads the sum of the values instead, and T and its statements
   go.  Exact in real arithmetic (the order of the additions changes);
   every value is computed once, as before.
   Steps 1-3 take one reader.  A temporary whose one contribution is a
   load, a copy of another array (the adjoint of a convolution's
   accumulator, d1[e] += d_y[e], which d_b's and the window's nests
   read), is read from that array by every statement that reads it, at
   the element the copy wrote there (te_same_element), when nothing
   writes the copied array from the copy's stage to the reader's
   (step 5).  The same values, without the copy and its pass.
   4. Last, the simplifier's rules for products with a select of one
      element (te_simplify_points: points.c's selects, times what R or a
      sum multiplies them by) on every statement: the gradient of
      -log (p[t]) of a softmax p becomes p - onehot, with no division
      by p[t].  (After rescale, which looks for quotients by its stored
      values in the contributions as the sweep left them.)  */

#include "passes/passes.h"
#include "ir/index.h"

#define MAX_PARTS 8
#define MAX_READS 8

typedef struct part
{
  int stage;
  te_stmt *st;
} part;

/* Does any stage of P from FROM to TO (both included) write a tensor
   that V reads?  */
static bool
written_between (const te_program *p, int from, int to, const te_node *v)
{
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if (!te_reads (v, t))
        continue;
      for (int s = from; s <= to; s++)
        if (te_stage_writes (&p->stages[s], t))
          return true;
    }
  return false;
}

/* Step 5: T, whose one contribution W adds a load of another array at
   the element it writes, every iteration of W's loops its own element
   in row-major order, all of T: T is a copy of that array, and the NR
   statements READS read it instead.  */
static bool
copy (te_program *p, te_tensor *t, const part *w, int np, const part *reads,
      int nr)
{
  te_ctx *ctx = p->ctx;
  const te_stmt *c = w->st;
  const te_stage *cg = &p->stages[w->stage];
  te_node *lin, *size;
  if (np != 1 || c->value->op != TE_LOAD || c->value->u.tensor == t
      || te_canon_int (ctx, c->value->args[0]) != te_canon_int (ctx, c->index)
      || !te_linearize (ctx, cg->nloops, cg->loops, &lin, &size)
      || lin != te_canon_int (ctx, c->index) || !t->size
      || size != te_canon_int (ctx, t->size))
    return false;
  for (int i = 0; i < nr; i++)
    if (written_between (p, w->stage, reads[i].stage, c->value))
      return false;
  te_tensor *src = c->value->u.tensor;
  for (int i = 0; i < nr; i++)
    {
      te_stmt *x = reads[i].st;
      te_node *load[MAX_READS];
      int nl = te_loads_of (x->value, t, load, MAX_READS);
      if (nl < 1 || nl > MAX_READS)
        return false;
      for (int k = 0; k < nl; k++)
        x->value = te_replace (ctx, x->value, load[k],
                               te_load (ctx, src, load[k]->args[0]));
    }
  te_program_note (p, "fold: %s, a copy of %s, is read from it (%d "
                   "statement(s))", t->name, src->name, nr);
  te_program_drop_unread (p);
  return true;
}

/* Fold T if it is a candidate (steps 1-3).  */
static bool
fold (te_program *p, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  part parts[MAX_PARTS], reads_at[MAX_READS];
  int np = 0, rs = -1, nr = 0;
  te_stmt *r = NULL;
  bool several = false; /* more than one reader, or one after a part */
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *sg = &p->stages[s];
      if (sg->call && (te_call_passes (sg, t, true)
                       || te_call_passes (sg, t, false)))
        return false;
      for (int k = 0; k < sg->nstmts; k++)
        {
          te_stmt *x = &sg->stmts[k];
          bool reads = te_stmt_reads (x, t);
          if (x->dst == t)
            {
              int zero = 0;
              const te_loop *no_loops = NULL;
              if (reads || r || x->op != TE_ADD_TO || x->guard || x->ninner
                  || np == MAX_PARTS
                  || !te_rows_apart (ctx, sg->nloops, sg->loops, 1,
                                     &x->index, &zero, &no_loops, sg, NULL,
                                     NULL))
                return false;
              parts[np].stage = s;
              parts[np++].st = x;
            }
          else if (reads)
            {
              if (x->ninner || te_reads (x->index, t)
                  || (x->guard && te_reads (x->guard, t))
                  || te_reads_in_reduction (x->value, t) || nr == MAX_READS
                  || !np)
                return false;
              several |= r != NULL;
              r = x;
              rs = s;
              reads_at[nr].stage = s;
              reads_at[nr++].st = x;
            }
        }
    }
  if (!r || !np)
    return false;
  if (several)
    return copy (p, t, &parts[0], np, reads_at, nr);
  te_node *load[2];
  if (te_loads_of (r->value, t, load, 2) != 1)
    return false;
  const te_stage *rg = &p->stages[rs];
  te_node *sum = NULL;
  for (int i = 0; i < np; i++)
    {
      const te_stage *cg = &p->stages[parts[i].stage];
      const te_stmt *c = parts[i].st;
      te_node *v = te_same_element (ctx, cg->nloops, cg->loops, c->index,
                                    c->value, rg->nloops, rg->loops,
                                    load[0]->args[0]);
      if (!v || written_between (p, parts[i].stage, rs, c->value))
        return false;
      sum = sum ? te_add (ctx, sum, v) : v;
    }
  r->value = te_canon_loads (ctx, te_replace (ctx, r->value, load[0], sum));
  te_program_note (p, "fold: %s, read once, is the sum of its %d "
                   "contribution(s) where it is read", t->name, np);
  /* T is read no more: it goes with its contributions.  */
  te_program_drop_unread (p);
  return true;
}

bool
te_program_fold (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (t->kind == TE_TK_LOCAL && te_type_is_float (t->type) && fold (p, t))
        i = -1; /* the tensors moved */
    }
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *x = &p->stages[s].stmts[k];
        x->value = te_simplify_points (p->ctx, x->value);
      }
  return true;
}
