/* accumulate.c -- a sum that strides along its own loop, computed the
   other way round: its terms added to the element in a loop order with
   unit stride innermost.

   Before (an MLP's hidden layer, which its gradient computes again):
       stage 0: for (fused) i < n:
         for j < h: hid[j + h*i] = tanh (sum (p < d; b1[j];
                                              x[p + d*i] * w1[j + h*p]));
   After:
       stage 0: for (fused) i < n:
         for j < h: hid[j + h*i] = b1[j];
         for p < d, j < h: hid[j + h*i] += x[p + d*i] * w1[j + h*p];
         for j < h: hid[j + h*i] = tanh (hid[j + h*i]);
   The sum walks w1 with stride h along p, which no vectorizer makes
   fast; the addition walks it with unit stride along j, an axpy per
   input that lanes.c, next, runs in lanes.

   A statement qualifies when it sets (no guard) each element of a
   temporary along its innermost loop of its own, j, with unit stride,
   its value holds one floating-point sum reduction of the element's
   type, some load of whose term moves by more than one element along
   the reduction's innermost loop and every load of which steps 0 or 1
   along j, at least one 1; j is not a short constant loop, and no
   extent of the reduction's loops reads j.  Nothing the three
   statements compute reads the element (so no one sees it between
   them), and each element gets its terms in the source's order, after
   its initial value: the result is the same to the last bit.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <string.h>

typedef struct reds
{
  te_node *red;
  int n;
} reds;

static void
count_reds (te_node *n, void *data)
{
  reds *r = data;
  if (n->op == TE_REDUCE)
    {
      r->red = n;
      r->n++;
    }
}

typedef struct steps
{
  te_ctx *ctx;
  int var;
  bool unit, other; /* some load steps 1, some steps otherwise than 0, 1 */
} steps;

static void
load_steps (te_node *n, void *data)
{
  steps *a = data;
  if (n->op != TE_LOAD)
    return;
  int st = te_index_step (a->ctx, n->args[0], a->var);
  a->unit |= st == 1;
  a->other |= st < 0;
}

static steps
steps_along (te_ctx *ctx, te_node *n, int var)
{
  steps a = { ctx, var, false, false };
  te_walk (n, load_steps, &a);
  return a;
}

/* The reduction of statement X of stage S to accumulate, or NULL.  */
static te_node *
candidate (te_program *p, const te_stage *s, const te_stmt *x)
{
  if (x->op != TE_SET || x->guard || !x->ninner
      || x->dst->role != TE_ROLE_TEMP || te_reads (x->value, x->dst))
    return NULL;
  const te_loop *j = &x->inner[x->ninner - 1];
  if (!te_lanes_long_loop (j)
      || te_index_step (p->ctx, x->index, j->var) != 1)
    return NULL;
  reds r = { NULL, 0 };
  te_walk (x->value, count_reds, &r);
  if (r.n != 1)
    return NULL;
  te_node *red = r.red;
  int nl = red->u.red.nloops;
  if (red->u.red.kind != TE_RED_SUM || !te_type_is_float (red->type)
      || red->type != x->dst->type || !nl
      || s->nloops + x->ninner + nl > TE_MAX_LOOPS)
    return NULL;
  for (int k = 0; k < nl; k++)
    if (te_uses_var (red->u.red.loops[k].extent, j->var))
      return NULL;
  steps along_p = steps_along (p->ctx, red->args[1],
                               red->u.red.loops[nl - 1].var);
  steps along_j = steps_along (p->ctx, red->args[1], j->var);
  if (!along_p.other || !along_j.unit || along_j.other)
    return NULL;
  return red;
}

static te_loop *
copy_loops (te_ctx *ctx, const te_loop *a, int na, const te_loop *b, int nb,
            const te_loop *c, int nc)
{
  te_loop *l = te_alloc (ctx, (na + nb + nc) * sizeof *l);
  memcpy (l, a, na * sizeof *l);
  memcpy (l + na, b, nb * sizeof *l);
  memcpy (l + na + nb, c, nc * sizeof *l);
  return l;
}

/* Statement K of S, whose reduction is RED, as its three statements (two
   when its value is the sum); returns how many it added.  */
static int
accumulate (te_program *p, te_stage *s, int k, te_node *red)
{
  te_ctx *ctx = p->ctx;
  te_stmt x = s->stmts[k];
  te_node *load = te_load (ctx, x.dst, x.index);
  bool plain = x.value == red; /* no function of the sum to apply */
  int nl = red->u.red.nloops;
  int added = plain ? 1 : 2;
  for (int a = 0; a < added; a++)
    te_stage_add_stmt (p, s, x.dst, x.index, TE_SET, load, NULL, x.loc);
  memmove (&s->stmts[k + 1 + added], &s->stmts[k + 1],
           (s->nstmts - added - k - 1) * sizeof *s->stmts);
  te_stmt *init = &s->stmts[k], *sum = init + 1;
  init->value = red->args[0];
  init->split = 0;
  *sum = *init;
  sum->op = TE_ADD_TO;
  sum->value = red->args[1];
  sum->pos = sum->pos_first = 0;
  sum->ninner = x.ninner + nl;
  sum->inner = copy_loops (ctx, x.inner, x.ninner - 1, red->u.red.loops, nl,
                           &x.inner[x.ninner - 1], 1);
  if (!plain)
    {
      te_stmt *f = sum + 1;
      *f = *init;
      f->value = te_replace (ctx, x.value, red, load);
      f->pos = f->pos_first = 0;
      f->inner = copy_loops (ctx, x.inner, x.ninner, NULL, 0, NULL, 0);
    }
  te_program_note (p, "accumulate: the sum over %s into %s, by additions "
                   "with %s innermost",
                   te_program_var_name (p, red->u.red.loops[nl - 1].var),
                   x.dst->name,
                   te_program_var_name (p, x.inner[x.ninner - 1].var));
  return added;
}

bool
te_program_accumulate (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      for (int k = 0; k < s->nstmts && !s->blas; k++)
        {
          te_node *red = candidate (p, s, &s->stmts[k]);
          if (red)
            k += accumulate (p, s, k, red);
        }
    }
  return true;
}
