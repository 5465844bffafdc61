/* gemm.c -- reading a statement as a matrix product (gemm.h).

   Before:  stage 2: for i < n, j < m, p < k:
              d_x[p + i * k] += w[j + m * p] * d1[j + m * i];
   Read as: d_x = d1 * w^T as cblas_sgemm (n, k, m): C = d_x + 0 with
            ldc k, A = d1 + 0 (no transpose, lda m), B = w + 0
            (transposed, ldb m), row i, column p, sum over j.

   1. The statement adds (+=, no guard, no loops of its own) a product of
      floating constants and exactly two loads of the destination's type
      (through negations) into an array that it does not read, in a stage
      that is a call, reversed or recurrent (nor fused with others).
   2. Every index (the destination's and the two loads') is affine in the
      stage's counters: it equals its value at all counters 0 plus each
      counter times its coefficient, and the coefficients are free of
      counters and loads (no gather).
   3. The counters by where they move the element: the column j is one
      with coefficient 1 in the destination that moves exactly one load
      (that load is B); the row i moves the destination and the other
      load (A) only; the sum p moves A and B only (one with unit stride
      in A or B first).  Any other counter is a batch counter: one call
      per value.
   4. A has unit stride along p (op (A) = A, lda its step along i) or
      along i (op (A) = A^T, lda its step along p); B along j (ldb its
      step along p) or along p (transposed, ldb its step along j).  The
      extents of i, j and p use no counter.

   Limits: a product with a third factor that is not a constant (a
   scale from an array, a select, a conversion), a sum over two counters
   that need one call (a batch of rows flattened into K), and a
   destination without unit stride along a counter of B stay loops.  The
   BLAS needs lda, ldb, ldc at least the rows' lengths and the sizes
   within int: the back ends test that at run time and run the loops
   otherwise.

   te_gemm_forward reads a forward stage C = sum (p; init; A * B) (one
   = of a sum over one loop, no guard) as a program of two stages,
   C = init and C += A * B, the second matched as above; it refuses a
   stage whose arrays are not the kernel's parameters, with batch
   loops, or whose destination rows may overlap (the assignments of
   the source and the additions after the initial values differ there).  */

#include "ir/gemm.h"
#include "ir/index.h"

#include <stdio.h>
#include <string.h>

static bool
int_const (const te_node *n, int64_t v)
{
  return n->op == TE_CONST && !te_type_is_float (n->type) && n->u.i == v;
}

/* Does N use any counter of stage S?  */
static bool
uses_stage_var (const te_node *n, const te_stage *s)
{
  for (int l = 0; l < s->nloops; l++)
    if (te_uses_var (n, s->loops[l].var))
      return true;
  return false;
}

/* INDEX with counters VARS[0..NV) replaced by 0, canonical.  */
static te_node *
at_zero (te_ctx *ctx, te_node *index, const int *vars, int nv)
{
  te_node *n = index;
  for (int v = 0; v < nv; v++)
    n = te_replace (ctx, n, te_var (ctx, vars[v]), te_int (ctx, 0));
  return te_canon_int (ctx, n);
}

/* Step 2: the coefficients of INDEX along the counters of S, into COEF
   (one per loop); false when INDEX is no affine function of them.  */
static bool
affine (te_ctx *ctx, const te_stage *s, te_node *index, te_node **coef)
{
  if (te_reads (index, NULL))
    return false;
  int vars[TE_MAX_LOOPS];
  for (int l = 0; l < s->nloops; l++)
    vars[l] = s->loops[l].var;
  te_node *sum = at_zero (ctx, index, vars, s->nloops);
  for (int l = 0; l < s->nloops; l++)
    {
      coef[l] = te_coefficient (ctx, index, vars[l]);
      if (uses_stage_var (coef[l], s) || te_reads (coef[l], NULL))
        return false;
      sum = te_binary (ctx, TE_ADD, sum,
                       te_binary (ctx, TE_MUL, coef[l],
                                  te_var (ctx, vars[l])));
    }
  return te_canon_int (ctx, sum) == te_canon_int (ctx, index);
}

/* Step 1: alpha and the two loads of product V, or false.  */
static bool
product (te_node *v, te_type type, double *alpha, te_node **loads)
{
  *alpha = 1.0;
  while (v->op == TE_NEG)
    {
      *alpha = -*alpha;
      v = v->args[0];
    }
  te_node *f[8];
  int nf = te_factors (v, f, 8), nl = 0;
  if (nf < 0)
    return false;
  for (int i = 0; i < nf; i++)
    {
      te_node *x = f[i];
      bool neg = false;
      while (x->op == TE_NEG)
        {
          neg = !neg;
          x = x->args[0];
        }
      if (neg)
        *alpha = -*alpha;
      if (x->op == TE_CONST && te_type_is_float (x->type))
        *alpha *= x->u.f;
      else if (x->op == TE_LOAD && x->type == type && nl < 2)
        loads[nl++] = x;
      else
        return false;
    }
  return nl == 2;
}

/* The first loop of S whose counter has usage BITS (1 the destination,
   2 load 0, 4 load 1) and, when UNIT is not NULL, coefficient 1 in the
   index whose coefficients UNIT holds; -1 if none.  */
static int
find_loop (const int *bits, int nloops, int want, te_node *const *unit)
{
  for (int l = 0; l < nloops; l++)
    if (bits[l] == want && (!unit || int_const (unit[l], 1)))
      return l;
  return -1;
}

bool
te_gemm_match (te_program *p, const te_stage *s, int k, te_gemm *g,
               const char **why)
{
  te_ctx *ctx = p->ctx;
  memset (g, 0, sizeof *g);
  const te_stmt *st = &s->stmts[k];
  /* Step 1.  */
  if (s->call || s->reversed || s->recurrent || (s->fused && s->nstmts > 1))
    return *why = "its stage runs in order", false;
  if (st->op != TE_ADD_TO || st->guard || st->ninner)
    return *why = "not an unconditional += in the stage's loops", false;
  if (st->dst->type != TE_F32 && st->dst->type != TE_F64)
    return *why = "not float or double", false;
  te_node *ld[2];
  if (!product (st->value, st->dst->type, &g->alpha, ld))
    return *why = "not a product of two arrays", false;
  if (ld[0]->u.tensor == st->dst || ld[1]->u.tensor == st->dst)
    return *why = "reads its destination", false;
  /* Step 2.  */
  te_node *cd[TE_MAX_LOOPS], *cl[2][TE_MAX_LOOPS];
  if (!affine (ctx, s, st->index, cd)
      || !affine (ctx, s, ld[0]->args[0], cl[0])
      || !affine (ctx, s, ld[1]->args[0], cl[1]))
    return *why = "an index not affine in the loops", false;
  /* Step 3.  */
  int bits[TE_MAX_LOOPS];
  for (int l = 0; l < s->nloops; l++)
    bits[l] = (int_const (cd[l], 0) ? 0 : 1)
              | (int_const (cl[0][l], 0) ? 0 : 2)
              | (int_const (cl[1][l], 0) ? 0 : 4);
  int col = find_loop (bits, s->nloops, 1 | 2, cd), b = 0;
  if (col < 0)
    {
      col = find_loop (bits, s->nloops, 1 | 4, cd);
      b = 1;
    }
  if (col < 0)
    return *why = "no unit stride in the destination along a column", false;
  int a = 1 - b;
  te_node **ca = cl[a], **cb = cl[b];
  int row = find_loop (bits, s->nloops, 1 | (2 << a), NULL);
  int red = find_loop (bits, s->nloops, 2 | 4, ca);
  if (red < 0)
    red = find_loop (bits, s->nloops, 2 | 4, cb);
  if (red < 0)
    red = find_loop (bits, s->nloops, 2 | 4, NULL);
  if (row < 0 || red < 0)
    return *why = "no row and sum of a matrix product", false;
  /* Step 4.  */
  if (int_const (ca[red], 1))
    g->lda = ca[row];
  else if (int_const (ca[row], 1))
    {
      g->trans_a = true;
      g->lda = ca[red];
    }
  else
    return *why = "no unit stride in the first factor", false;
  if (int_const (cb[col], 1))
    g->ldb = cb[red];
  else if (int_const (cb[red], 1))
    {
      g->trans_b = true;
      g->ldb = cb[col];
    }
  else
    return *why = "no unit stride in the second factor", false;
  g->ldc = cd[row];
  const int mine[3] = { row, col, red };
  for (int i = 0; i < 3; i++)
    {
      te_node *e = s->loops[mine[i]].extent;
      if (uses_stage_var (e, s) || te_reads (e, NULL))
        return *why = "an extent that moves with a loop", false;
    }
  int vars[3] = { s->loops[row].var, s->loops[col].var, s->loops[red].var };
  for (int l = 0; l < s->nloops; l++)
    {
      if (l == row || l == col || l == red)
        continue;
      for (int i = 0; i < 3; i++)
        if (te_uses_var (s->loops[l].extent, vars[i]))
          return *why = "an extent that moves with a loop", false;
      g->batch[g->nbatch] = s->loops[l];
      g->batch[g->nbatch++].lanes = 0;
    }
  g->row = vars[0];
  g->col = vars[1];
  g->red = vars[2];
  g->m = s->loops[row].extent;
  g->n = s->loops[col].extent;
  g->k = s->loops[red].extent;
  g->a = ld[a]->u.tensor;
  g->b = ld[b]->u.tensor;
  g->c = st->dst;
  g->off_a = at_zero (ctx, ld[a]->args[0], vars, 3);
  g->off_b = at_zero (ctx, ld[b]->args[0], vars, 3);
  g->off_c = at_zero (ctx, st->index, vars, 3);
  g->beta = 1.0;
  return true;
}

const char *
te_gemm_function (const te_gemm *g)
{
  return g->c->type == TE_F32 ? "cblas_sgemm" : "cblas_dgemm";
}

const char *
te_gemm_text (const te_program *p, const te_gemm *g)
{
  char alpha[48] = "";
  if (g->alpha != 1.0)
    snprintf (alpha, sizeof alpha, "%g * ", g->alpha);
  char batch[256] = "";
  for (int i = 0; i < g->nbatch; i++)
    {
      size_t n = strlen (batch);
      snprintf (batch + n, sizeof batch - n, "%s%s",
                i ? ", " : " in a loop over ",
                te_program_var_name (p, g->batch[i].var));
    }
  const char *m = te_node_string (p, g->m), *n = te_node_string (p, g->n),
             *k = te_node_string (p, g->k);
  size_t len = strlen (m) + strlen (n) + strlen (k) + strlen (g->a->name)
               + strlen (g->b->name) + strlen (g->c->name) + 400;
  char *buf = te_alloc (p->ctx, len);
  snprintf (buf, len, "%s = %s%s%s * %s%s as %s (%s, %s, %s)%s",
            g->c->name, alpha, g->a->name, g->trans_a ? "^T" : "",
            g->b->name, g->trans_b ? "^T" : "", te_gemm_function (g), m, n,
            k, batch);
  return buf;
}

/* ---- A product in the forward (te_gemm_forward) ---- */

/* Does V read a tensor of P that a program of the kernel's parameters
   cannot: a local array (the kernel's own), the return value, or a
   pointer the kernel tests against NULL?  */
static bool
reads_non_param (const te_program *p, const te_node *v)
{
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if ((t->kind == TE_TK_LOCAL || t->kind == TE_TK_RETURN || t->optional)
          && te_reads (v, t))
        return true;
    }
  return false;
}

te_program *
te_gemm_forward (te_program *p, int si, te_gemm *g, const char **why)
{
  const te_stage *s = &p->stages[si];
  /* Step 1.  */
  if (s->call || s->reversed || s->recurrent || s->block_end || s->par
      || s->nstmts != 1)
    return *why = "not a stage of one statement", NULL;
  const te_stmt *st = &s->stmts[0];
  if (st->op != TE_SET || st->guard || st->ninner)
    return *why = "not an unconditional = in the stage's loops", NULL;
  const te_node *v = st->value;
  if (v->op != TE_REDUCE || v->u.red.kind != TE_RED_SUM
      || v->u.red.nloops != 1 || v->type != st->dst->type)
    return *why = "not a sum over one loop", NULL;
  for (int l = 0; l < s->nloops; l++)
    if (s->loop_ids[l] <= 0)
      return *why = "a loop of no source loop", NULL;
  if (te_program_var_loop (p, v->u.red.loops[0].var) <= 0)
    return *why = "a loop of no source loop", NULL;
  /* Step 2.  */
  te_tensor *dst = st->dst;
  te_node *init = v->args[0], *body = v->args[1];
  if (dst->kind != TE_TK_PARAM || dst->optional)
    return *why = "its destination is no array parameter", NULL;
  if (te_reads (init, dst) || te_reads (body, dst) || te_reads (st->index, dst))
    return *why = "reads its destination", NULL;
  if (reads_non_param (p, v) || reads_non_param (p, st->index))
    return *why = "reads a local array or an optional pointer", NULL;
  /* Step 3.  */
  char name[256];
  snprintf (name, sizeof name, "%s.blas%d", p->name, si);
  te_program *q = te_program_new (p->ctx, name);
  for (int i = 0; i < p->nparams; i++)
    {
      const te_param *r = &p->params[i];
      te_program_add_param (q, r->name, r->kind, r->type, r->loc);
    }
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (t == dst || te_reads (v, t) || te_reads (st->index, t))
        te_program_share_tensor (q, t);
    }
  for (int i = 0; i < p->nvars; i++)
    {
      te_program_new_var (q, p->var_names[i]);
      te_program_set_var_loop (q, i, te_program_var_loop (p, i));
    }
  te_stage *a = te_program_add_stage (q, s->loc);
  for (int l = 0; l < s->nloops; l++)
    te_stage_add_loop (a, s->loops[l].var, s->loops[l].extent);
  te_stage_add_stmt (q, a, dst, st->index, TE_SET, init, NULL, st->loc);
  te_stage *b = te_program_add_stage (q, s->loc);
  for (int l = 0; l < s->nloops; l++)
    te_stage_add_loop (b, s->loops[l].var, s->loops[l].extent);
  te_stage_add_loop (b, v->u.red.loops[0].var, v->u.red.loops[0].extent);
  te_stage_add_stmt (q, b, dst, st->index, TE_ADD_TO, body, NULL, st->loc);
  b->blas = true;
  /* Step 4.  */
  if (!te_gemm_match (q, b, 0, g, why))
    return NULL;
  if (g->nbatch)
    return *why = "a loop besides the product's (a batch)", NULL;
  te_node *gap = te_canon_int (p->ctx, te_binary (p->ctx, TE_SUB, g->ldc,
                                                  g->n));
  if (gap->op != TE_CONST || gap->u.i < 0)
    return *why = "rows of the destination that may overlap", NULL;
  return q;
}
