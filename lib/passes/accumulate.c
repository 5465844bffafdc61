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
   its initial value: the result is the same to the last bit.

   The pass accumulate-stages (te_program_accumulate_stages) does the
   same for a sum down the columns of a stage's loop, after blas.c (a
   product it runs as a CBLAS call keeps its stage, marked blas) and
   before materialize.c (which then computes once what the additions
   share, the mean s[j] / n in a variance's) and rows.c:
   Before (a batch norm's statistics, feature by feature):
       stage 0: for j < m:  s[j] = sum (i < n; 0f; x[j + m*i]);
   After:
       stage 0: for j < m:  s[j] = 0f;
       stage 1: for i < n, j < m:  s[j] += x[j + m*i];
   The forward walks x with stride m along i, one column per feature,
   and the sum is a chain of dependent scalar additions; the additions
   walk it row by row, j innermost with unit stride (lanes.c runs them
   in lanes).  It takes a stage of one statement (schedule.c made it
   so), not fused, not a recurrence, running forwards, that sets a
   temporary with no guard and no loops of its own, and asks of it, with
   the stage's innermost loop for j, what the first case asks; the
   function of the sum, if any, is applied in a third stage over the
   stage's loops.  The reduction's loops go between the stage's outer
   loops and j, so no extent of the stage's may read another's counter,
   and each iteration of the stage must write an element of its own
   (te_writes_in_order), since the additions of all iterations run
   after all the initial values.
   Before rows.c: the element then stays an array over j (rows.c cannot
   run the three stages row by row, and shrink.c leaves it), where after
   rows.c the stage would have been one iteration of a fused loop over
   j, its sum a scalar no loop order can make unit-stride.  */

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

static te_node *strided_sum (te_program *p, const te_stmt *x,
                             const te_loop *j, int nouter);

/* The reduction of statement X of stage S to accumulate, or NULL.  */
static te_node *
candidate (te_program *p, const te_stage *s, const te_stmt *x)
{
  if (x->op != TE_SET || x->guard || !x->ninner
      || x->dst->role != TE_ROLE_TEMP || te_reads (x->value, x->dst))
    return NULL;
  return strided_sum (p, x, &x->inner[x->ninner - 1],
                      s->nloops + x->ninner);
}

/* The one floating-point sum reduction of X's value, which strides along
   its innermost loop and steps 0 or 1 along loop J (at least one load
   1), when X's element steps 1 along J, J is long and the sum's loops,
   added to the NOUTER loops around it, fit in a nest; else NULL.  */
static te_node *
strided_sum (te_program *p, const te_stmt *x, const te_loop *j, int nouter)
{
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
      || red->type != x->dst->type || !nl || nouter + nl > TE_MAX_LOOPS)
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

/* ---- accumulate-stages: a sum down the columns of a stage's loop ---- */

/* The reduction of stage S's one statement to accumulate with S's
   innermost loop innermost, or NULL.  */
static te_node *
stage_candidate (te_program *p, const te_stage *s)
{
  if (s->fused || s->call || s->blas || s->reversed || s->recurrent
      || s->par || s->nstmts != 1 || !s->nloops)
    return NULL;
  const te_stmt *x = &s->stmts[0];
  if (x->op != TE_SET || x->guard || x->ninner
      || x->dst->role != TE_ROLE_TEMP || te_reads (x->value, x->dst))
    return NULL;
  for (int a = 0; a < s->nloops; a++)
    for (int b = 0; b < s->nloops; b++)
      if (te_uses_var (s->loops[a].extent, s->loops[b].var))
        return NULL;
  /* Each iteration its own element: the additions of all iterations
     then add into it what its own sum would.  */
  if (!te_writes_in_order (p->ctx, s, x->index))
    return NULL;
  return strided_sum (p, x, &s->loops[s->nloops - 1], s->nloops);
}

/* A copy of stage S with the statement DST[INDEX] OP VALUE over the
   loops LOOPS[0..N) (source loop ids IDS), appended to P.  */
static void
add_stage (te_program *p, const te_stage *s, const te_stmt *x, te_store op,
           te_node *value, const te_loop *loops, const int *ids, int n)
{
  te_stage *ns = te_program_add_stage (p, s->loc);
  *ns = *s;
  ns->nstmts = 0;
  ns->stmts = NULL;
  ns->nloops = n;
  memcpy (ns->loops, loops, n * sizeof *loops);
  memcpy (ns->loop_ids, ids, n * sizeof *ids);
  te_stmt *c = te_stage_add_stmt (p, ns, x->dst, x->index, op, value, NULL,
                                  x->loc);
  c->split = 0;
}

/* Stage S, whose statement's reduction is RED, as its two or three
   stages, appended to P.  */
static void
accumulate_stage (te_program *p, const te_stage *s, te_node *red)
{
  const te_stmt *x = &s->stmts[0];
  int n = s->nloops, nl = red->u.red.nloops;
  te_loop loops[TE_MAX_LOOPS];
  int ids[TE_MAX_LOOPS];
  add_stage (p, s, x, TE_SET, red->args[0], s->loops, s->loop_ids, n);
  memcpy (loops, s->loops, (n - 1) * sizeof *loops);
  memcpy (ids, s->loop_ids, (n - 1) * sizeof *ids);
  memcpy (loops + n - 1, red->u.red.loops, nl * sizeof *loops);
  memset (ids + n - 1, 0, nl * sizeof *ids);
  loops[n - 1 + nl] = s->loops[n - 1];
  ids[n - 1 + nl] = s->loop_ids[n - 1];
  add_stage (p, s, x, TE_ADD_TO, red->args[1], loops, ids, n + nl);
  if (x->value != red)
    add_stage (p, s, x, TE_SET,
               te_replace (p->ctx, x->value, red,
                           te_load (p->ctx, x->dst, x->index)),
               s->loops, s->loop_ids, n);
  te_program_note (p, "accumulate-stages: the sum over %s into %s, by "
                   "additions with %s innermost",
                   te_program_var_name (p, red->u.red.loops[nl - 1].var),
                   x->dst->name,
                   te_program_var_name (p, s->loops[n - 1].var));
}

bool
te_program_accumulate_stages (te_program *p, te_diag *diag)
{
  (void) diag;
  int n;
  te_stage *old = te_program_take_stages (p, &n);
  for (int s = 0; s < n; s++)
    {
      te_node *red = stage_candidate (p, &old[s]);
      if (red)
        accumulate_stage (p, &old[s], red);
      else
        *te_program_add_stage (p, old[s].loc) = old[s];
    }
  return true;
}
