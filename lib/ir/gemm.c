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
      extents of i, j and p use no counter, but for one triangle
      (te_gemm_tri, with the CBLAS only): one of them is another's
      counter plus 1, x <= y, whose own extent uses none.  Over the
      row and the sum, op (A) is a triangular matrix (M = K: the
      triangle's box) and the call a trmm, which reads only that
      triangle (OpenBLAS's kernels multiply the other half's zeros
      all the same: an infinity in the factor it works on gives NaN
      where the loops skip it, as README says); over the column and
      the sum, op (B); over the row and the column, the product of
      the box goes to a scratch and its triangle to C.

   Limits: a product with a third factor that is not a constant (a
   scale from an array, a select, a conversion), a sum over two counters
   that need one call (a batch of rows flattened into K), and a
   destination without unit stride along a counter of B stay loops.  The
   BLAS needs lda, ldb, ldc at least the rows' lengths and the sizes
   within int: the back ends test that at run time and run the loops
   otherwise.

   te_gemm_forward reads a forward stage C = f (sum (p; init; s * A * B))
   (one = of one sum over one loop, no guard but a test of sizes; s the
   factors of the term
   free of p, a divisor too) as a program of two or three stages (four
   for a sum over several loops: im2col, step 3b),
   C = init (0 with s), C += A * B (matched as above, in batch loops or
   not), then C = f (init + s * C) when there is more than the sum:
     1. the_sum: the one sum in the value;
     2. split_scale: s off the term;
     3. the stages;
     4. locals_as_params: the kernel's local arrays (te_tensor.decl)
        become pointer parameters after the kernel's;
     5. te_gemm_match, and te_rows_apart (lib/ir/index.h): distinct
        iterations of the product's row, column and batch loops store
        distinct elements
        (else the assignments of the source and the additions after the
        initial values differ).
   It refuses a stage that reads C, the return value, an optional
   pointer or an array the lifter or a pass made (no storage to pass).  */

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

/* Step 4: which of the three counters VARS (of loops MINE of S) extent E
   is plus 1, when that counter's own extent uses no counter of S: its
   place in VARS, else -1.  */
static int
triangle_of (te_ctx *ctx, const te_stage *s, te_node *e, const int *mine,
             const int *vars)
{
  te_node *ce = te_canon_int (ctx, e);
  for (int j = 0; j < 3; j++)
    if (te_canon_int (ctx, te_add (ctx, te_var (ctx, vars[j]),
                                   te_int (ctx, 1)))
            == ce
        && !uses_stage_var (s->loops[mine[j]].extent, s))
      return j;
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
  int vars[3] = { s->loops[row].var, s->loops[col].var, s->loops[red].var };
  te_node *ext[3];
  int tx = -1, ty = -1;
  for (int i = 0; i < 3; i++)
    {
      te_node *e = s->loops[mine[i]].extent;
      ext[i] = e;
      if (te_reads (e, NULL))
        return *why = "an extent that moves with a loop", false;
      if (!uses_stage_var (e, s))
        continue;
      int y = triangle_of (ctx, s, e, mine, vars);
      if (y < 0 || tx >= 0)
        return *why = "an extent that moves with a loop", false;
      if (p->tiled)
        return *why = "a triangle (the tiled product has none)", false;
      tx = i;
      ty = y;
    }
  if (tx >= 0)
    {
      /* The box: x runs as far as y does.  */
      ext[tx] = ext[ty];
      /* 0 row, 1 column, 2 sum: x <= y.  */
      if (tx != 2 && ty != 2)
        {
          g->tri = TE_GEMM_TRI_C;
          g->tri_upper = tx == 0;
        }
      else if (tx == 0 || ty == 0)
        {
          /* op (A)[i][p]: upper where i <= p.  */
          g->tri = TE_GEMM_TRI_A;
          g->tri_upper = (tx == 0) != g->trans_a;
        }
      else
        {
          /* op (B)[p][j]: upper where p <= j.  */
          g->tri = TE_GEMM_TRI_B;
          g->tri_upper = (tx == 2) != g->trans_b;
        }
    }
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
  g->m = ext[0];
  g->n = ext[1];
  g->k = ext[2];
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
te_blas_function (te_type type, bool trmm)
{
  if (trmm)
    return type == TE_F32 ? "cblas_strmm" : "cblas_dtrmm";
  return type == TE_F32 ? "cblas_sgemm" : "cblas_dgemm";
}

const char *
te_gemm_function (const te_gemm *g)
{
  return te_blas_function (g->c->type, g->tri == TE_GEMM_TRI_A
                                           || g->tri == TE_GEMM_TRI_B);
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
  const char *half = g->tri_upper ? "upper" : "lower";
  char tri[160] = "";
  if (g->tri == TE_GEMM_TRI_C)
    snprintf (tri, sizeof tri, ", the %s triangle added", half);
  else if (g->tri)
    snprintf (tri, sizeof tri, ", %s's %s triangle",
              g->tri == TE_GEMM_TRI_A ? g->a->name : g->b->name, half);
  if (g->tri == TE_GEMM_TRI_A || g->tri == TE_GEMM_TRI_B)
    snprintf (buf, len, "%s = %s%s%s * %s%s as %s (%s, %s)%s%s",
              g->c->name, alpha, g->a->name, g->trans_a ? "^T" : "",
              g->b->name, g->trans_b ? "^T" : "", te_gemm_function (g), m,
              n, batch, tri);
  else
    snprintf (buf, len, "%s = %s%s%s * %s%s as %s (%s, %s, %s)%s%s",
              g->c->name, alpha, g->a->name, g->trans_a ? "^T" : "",
              g->b->name, g->trans_b ? "^T" : "",
              p->tiled ? "tiled" : te_gemm_function (g), m, n, k, batch,
              tri);
  return buf;
}

/* ---- A product in the forward (te_gemm_forward) ---- */

/* Can a program of the kernel's parameters and the addresses of its
   local arrays read or write T?  Not the return value, a pointer the
   kernel tests against NULL, nor a local array a pass or the lifter
   made (no storage of the kernel holds it: te_tensor.decl).  */
static bool
addressable (const te_tensor *t)
{
  if (t->kind == TE_TK_LOCAL)
    return t->decl != NULL;
  return t->kind != TE_TK_RETURN && !t->optional;
}

/* Does V read a tensor of P that is not addressable?  */
static bool
reads_unaddressable (const te_program *p, const te_node *v)
{
  for (int i = 0; i < p->ntensors; i++)
    if (!addressable (p->tensors[i]) && te_reads (v, p->tensors[i]))
      return true;
  return false;
}

/* The distinct reductions of a value (te_walk), at most two kept.  */
typedef struct sums
{
  te_node *r[2];
  int n;
} sums;

static void
sums_fn (te_node *n, void *data)
{
  sums *s = data;
  if (n->op != TE_REDUCE)
    return;
  for (int i = 0; i < s->n && i < 2; i++)
    if (s->r[i] == n)
      return;
  if (s->n < 2)
    s->r[s->n] = n;
  s->n++;
}

/* Step 2: BODY, a sum's term, without its factors of type TYPE free of
   the counters of sum RED (a scale, 1 / sqrt (d), a column's weight)
   and a divisor free of them; their product into *SCALE and the divisor into
   *DIV (NULL when none).  */
static bool
uses_red (const te_node *n, const te_node *r)
{
  for (int l = 0; l < r->u.red.nloops; l++)
    if (te_uses_var (n, r->u.red.loops[l].var))
      return true;
  return false;
}

static te_node *
split_scale (te_ctx *ctx, te_node *body, const te_node *red, te_type type,
             te_node **scale, te_node **div)
{
  *scale = *div = NULL;
  if (body->op == TE_DIV && body->args[1]->type == type
      && !uses_red (body->args[1], red))
    {
      *div = body->args[1];
      body = body->args[0];
    }
  te_node *f[8], *rest = NULL;
  int nf = te_factors (body, f, 8);
  if (nf < 0)
    return body;
  for (int i = 0; i < nf; i++)
    if (f[i]->op != TE_CONST && f[i]->type == type
        && !uses_red (f[i], red))
      *scale = *scale ? te_binary (ctx, TE_MUL, *scale, f[i]) : f[i];
    else
      rest = rest ? te_binary (ctx, TE_MUL, rest, f[i]) : f[i];
  if (!rest)
    {
      *scale = NULL;
      return body;
    }
  return rest;
}

/* Step 4: the local arrays Q names become parameters after P's (a
   pointer to the elements each, the tensor keeping the local's handle
   in te_tensor.decl).  */
static void
locals_as_params (te_program *q, te_tensor **locals, int nlocals)
{
  for (int i = 0; i < nlocals; i++)
    {
      te_tensor *t = locals[i];
      int k = te_program_add_param (q, t->name, TE_PK_PTR_FLOAT, t->type,
                                    t->loc);
      te_tensor *u = te_program_add_tensor (q, t->name, t->type, TE_TK_PARAM,
                                            k, t->loc);
      u->decl = t->decl;
      te_program_retarget (q, t, u);
    }
}

/* Step 1: the one sum over one loop of the value of stage S's
   statement, or NULL with *WHY.  */
static te_node *
the_sum (te_program *p, const te_stage *s, const char **why)
{
  if (s->call || s->reversed || s->recurrent || s->block_end || s->par
      || s->nstmts != 1)
    return *why = "not a stage of one statement", NULL;
  const te_stmt *st = &s->stmts[0];
  if (st->op != TE_SET || st->ninner)
    return *why = "not an unconditional = in the stage's loops", NULL;
  /* A test of sizes around the whole nest (if (k > 2) for ...): the
     call runs where the nest did (plugin/forward.cc checks that no
     test is inside the nest).  */
  if (st->guard && (uses_stage_var (st->guard, s)
                    || te_reads (st->guard, NULL)))
    return *why = "a condition on its loops or on data", NULL;
  sums found = { { NULL, NULL }, 0 };
  te_walk (st->value, sums_fn, &found);
  te_node *r = found.r[0];
  if (found.n != 1 || r->u.red.kind != TE_RED_SUM
      || r->type != st->dst->type)
    return *why = "not a sum over one loop", NULL;
  for (int l = 0; l < s->nloops; l++)
    if (s->loop_ids[l] <= 0)
      return *why = "a loop of no source loop", NULL;
  for (int l = 0; l < r->u.red.nloops; l++)
    if (te_program_var_loop (p, r->u.red.loops[l].var) <= 0)
      return *why = "a loop of no source loop", NULL;
  return r;
}

/* Do the loops LOOPS[0..N) (outermost first) move INDEX as one counter
   of their row-major iteration number would, times the innermost's
   coefficient: each loop's coefficient the next one's times the next
   one's extent?  That coefficient into *STEP.  */
static bool
dense_chain (te_ctx *ctx, te_node *index, const te_loop *loops, int n,
             te_node **step)
{
  te_node *next = NULL;
  for (int l = n - 1; l >= 0; l--)
    {
      te_node *c = te_coefficient (ctx, index, loops[l].var);
      if (next && te_canon_int (ctx, c) != te_canon_int (ctx, next))
        return false;
      if (l == n - 1)
        *step = c;
      next = te_binary (ctx, TE_MUL, c, loops[l].extent);
    }
  return n > 0;
}

/* Is INDEX INDEX at 0 plus each of the counters of LOOPS[0..N) times
   a coefficient free of counters and loads (and so affine in them)?  */
static bool
affine_in (te_ctx *ctx, te_node *index, const te_loop *loops, int n,
           const te_stage *s)
{
  int vars[TE_MAX_LOOPS] = { 0 };
  for (int l = 0; l < n; l++)
    vars[l] = loops[l].var;
  te_node *sum = at_zero (ctx, index, vars, n);
  for (int l = 0; l < n; l++)
    {
      te_node *c = te_coefficient (ctx, index, vars[l]);
      if (uses_stage_var (c, s) || te_reads (c, NULL))
        return false;
      for (int k = 0; k < n; k++)
        if (te_uses_var (c, vars[k]))
          return false;
      sum = te_binary (ctx, TE_ADD, sum,
                       te_binary (ctx, TE_MUL, c, te_var (ctx, vars[l])));
    }
  return te_canon_int (ctx, sum) == te_canon_int (ctx, index);
}

/* The conjunction of the conditions of the selects around the term of
   BODY whose other arm, the second, is 0 (a convolution's padding
   tests), NULL when there are none, or BODY itself when a select has
   its 0 first.  */
static te_node *
guard_of (te_ctx *ctx, te_node *body)
{
  te_node *g = NULL;
  for (; body->op == TE_SELECT; body = body->args[1])
    {
      if (!te_is_const (body->args[2], 0.0))
        return body;
      g = g ? te_binary (ctx, TE_AND, g, body->args[0]) : body->args[0];
    }
  return g;
}

/* Step 2b: the term of a sum over several loops without its selects
   whose other arm is 0 (a convolution's zero padding tested in the
   loop), or NULL if they leave none.  */
static te_node *
unguarded (te_node *body)
{
  while (body->op == TE_SELECT)
    {
      if (te_is_const (body->args[2], 0.0))
        body = body->args[1];
      else if (te_is_const (body->args[1], 0.0))
        body = body->args[2];
      else
        return NULL;
    }
  return body;
}

/* ---- Patches: a product over several loops packed as a matrix ---- */

bool
te_gemm_patches (te_program *q, const char *name, te_type type, te_loc loc,
                 const te_loop *b, int nb, const te_loop *kk, int nkk,
                 const te_loop *pix, int npix, bool pad, te_patches *pp)
{
  te_ctx *ctx = q->ctx;
  te_node *n_b;
  memset (pp, 0, sizeof *pp);
  if (!te_linearize (ctx, nb, b, &pp->lin_b, &n_b)
      || !te_linearize (ctx, nkk, kk, &pp->lin_kk, &pp->n_kk)
      || !te_linearize (ctx, npix, pix, &pp->lin_pix, &pp->n_pix))
    return false;
  pp->row = pad ? te_canon_int (ctx, te_add (ctx, pp->n_pix,
                                             te_int (ctx, type == TE_F64
                                                              ? 8
                                                              : 16)))
                : pp->n_pix;
  pp->t = te_program_add_tensor (q, name, type, TE_TK_LOCAL, -1, loc);
  pp->t->size = te_canon_int (
      ctx, te_binary (ctx, TE_MUL, n_b,
                      te_binary (ctx, TE_MUL, pp->n_kk, pp->row)));
  pp->index = te_gemm_patch_index (ctx, pp, pp->lin_b, pp->lin_kk,
                                   pp->lin_pix);
  return true;
}

te_node *
te_gemm_patch_index (te_ctx *ctx, const te_patches *pp, te_node *b,
                     te_node *kk, te_node *pix)
{
  return te_canon_int (
      ctx, te_binary (ctx, TE_ADD,
                      te_binary (ctx, TE_MUL,
                                 te_binary (ctx, TE_ADD,
                                            te_binary (ctx, TE_MUL, b,
                                                       pp->n_kk),
                                            kk),
                                 pp->row),
                      pix));
}

te_stage *
te_gemm_pack (te_program *q, const te_patches *pp, const te_loop *b, int nb,
              const te_loop *kk, int nkk, const te_loop *pix, int npix,
              te_node *value, te_node *guard, te_loc loc, te_loc stmt_loc)
{
  te_stage *a = te_program_add_stage (q, loc);
  for (int l = 0; l < nb; l++)
    te_stage_add_loop (a, b[l].var, b[l].extent);
  for (int l = 0; l < nkk; l++)
    te_stage_add_loop (a, kk[l].var, kk[l].extent);
  for (int l = 0; l < npix; l++)
    te_stage_add_loop (a, pix[l].var, pix[l].extent);
  te_stage_add_stmt (q, a, pp->t, pp->index, TE_SET, value, guard, stmt_loc);
  return a;
}

/* Is integer E at least 0 by its form alone: constants at least 0,
   max (X, 0), and sums and products of such?  */
static bool
at_least_zero (const te_node *e)
{
  switch (e->op)
    {
    case TE_CONST:
      return e->u.i >= 0;
    case TE_MAX:
      return (e->args[1]->op == TE_CONST && e->args[1]->u.i >= 0)
             || (e->args[0]->op == TE_CONST && e->args[0]->u.i >= 0);
    case TE_ADD:
    case TE_MUL:
      return at_least_zero (e->args[0]) && at_least_zero (e->args[1]);
    default:
      return false;
    }
}

bool
te_gemm_fills (te_program *p, const te_stage *s, const te_gemm *g)
{
  te_ctx *ctx = p->ctx;
  const te_stmt *st = &s->stmts[0];
  if (s->nstmts != 1 || g->c != st->dst || g->c->kind != TE_TK_LOCAL
      || !g->c->size || g->nbatch + 2 > TE_MAX_LOOPS || g->tri)
    return false;
  te_loop loops[TE_MAX_LOOPS];
  int n = 0;
  for (int l = 0; l < g->nbatch; l++)
    loops[n++] = g->batch[l];
  for (int i = 0; i < 2; i++)
    for (int l = 0; l < s->nloops; l++)
      if (s->loops[l].var == (i ? g->col : g->row))
        loops[n++] = s->loops[l];
  if (n != g->nbatch + 2)
    return false;
  for (int l = 0; l < n; l++)
    if (loops[l].start)
      return false;
  te_node *lin, *size;
  if (!te_linearize (ctx, n, loops, &lin, &size))
    return false;
  /* te_linearize's size keeps max (E, 0) of an extent that is at least
     0 by its form (9 * max (c, 0)), where the array's size has E.  */
  size = te_int (ctx, 1);
  for (int l = 0; l < n; l++)
    {
      te_node *e = loops[l].extent;
      size = te_mul (ctx, size,
                     at_least_zero (e)
                         ? e
                         : te_binary (ctx, TE_MAX, e, te_int (ctx, 0)));
    }
  return te_canon_int (ctx, st->index) == lin
         && te_canon_int (ctx, g->c->size) == te_canon_int (ctx, size);
}

bool
te_gemm_dense_chain (te_ctx *ctx, te_node *index, const te_loop *loops,
                     int n, te_node **step)
{
  return dense_chain (ctx, index, loops, n, step);
}

bool
te_gemm_affine (te_ctx *ctx, const te_stage *s, te_node *index,
                te_node **coef)
{
  return affine (ctx, s, index, coef);
}

bool
te_gemm_product (te_node *v, te_type type, double *alpha, te_node **loads)
{
  return product (v, type, alpha, loads);
}

te_node *
te_gemm_at_zero (te_ctx *ctx, te_node *index, const te_loop *loops, int n)
{
  int vars[TE_MAX_LOOPS];
  for (int l = 0; l < n; l++)
    vars[l] = loops[l].var;
  return at_zero (ctx, index, vars, n);
}

/* Step 3b, a product over several loops (a convolution, C[n][o][oh][ow]
   = sum over ci, kh, kw of W[o][ci][kh][kw] X[n][ci][oh + kh][ow + kw]
   behind its padding's tests), as im2col: with W the factor whose index
   the summed loops move as one counter kk would and the output's
   innermost loops (the columns) do not, a stage packs the other factor
   X, where the tests hold, into a zeroed temporary P[pb][kk][pix] (pb the other
   loops X moves, pix the columns as one counter), then the product
   adds W[.. kk] P[pb][kk][pix] into C[.. pix] over kk, a blas stage.
   Returns the stage's value in Q (W * P, with the scale's constants) or
   NULL with *WHY; the pack stage added to Q; *LOOPS, *NLOOPS the blas
   stage's loops, *INDEX C's index over them.  */
static te_node *
im2col (te_program *q, const te_stage *s, te_node *r, te_node *body,
        te_node *rest, te_loop *loops, int *nloops, te_node **index,
        const char **why)
{
  te_ctx *ctx = q->ctx;
  const te_stmt *st = &s->stmts[0];
  int nr = r->u.red.nloops;
  const te_loop *red = r->u.red.loops;
  te_node *f[8], *ld[2];
  int nf = te_factors (rest, f, 8), nl = 0;
  te_node *consts = NULL;
  for (int i = 0; i < nf; i++)
    if (f[i]->op == TE_LOAD && nl < 2 && f[i]->type == st->dst->type)
      ld[nl++] = f[i];
    else if (f[i]->op == TE_CONST)
      consts = consts ? te_binary (ctx, TE_MUL, consts, f[i]) : f[i];
    else
      return *why = "not a product of two arrays", NULL;
  if (nf < 0 || nl != 2)
    return *why = "not a product of two arrays", NULL;
  for (int l = 0; l < nr; l++)
    if (uses_stage_var (red[l].extent, s))
      return *why = "an extent that moves with a loop", NULL;
  /* W: summed loops dense in its index, no column.  */
  te_loop cols[TE_MAX_LOOPS], pb[TE_MAX_LOOPS];
  for (int w = 0; w < 2; w++)
    {
      te_node *wi = ld[w]->args[0], *xi = ld[1 - w]->args[0];
      te_node *wstep;
      if (te_reads (wi, NULL) || !dense_chain (ctx, wi, red, nr, &wstep)
          || uses_stage_var (wstep, s))
        continue;
      if (!affine_in (ctx, wi, red, nr, s))
        continue;
      /* The columns: the innermost loops that move C and X, not W,
         dense in C with step 1.  */
      int nc = 0;
      for (int l = s->nloops - 1; l >= 0; l--)
        {
          int v = s->loops[l].var;
          if (!te_uses_var (st->index, v) || !te_uses_var (xi, v)
              || te_uses_var (wi, v))
            break;
          nc++;
        }
      te_node *cstep = NULL;
      while (nc > 0
             && !(dense_chain (ctx, st->index, s->loops + s->nloops - nc, nc,
                               &cstep)
                  && int_const (te_canon_int (ctx, cstep), 1)))
        nc--;
      if (nc == 0 || !affine_in (ctx, st->index, s->loops + s->nloops - nc,
                                 nc, s))
        continue;
      memcpy (cols, s->loops + s->nloops - nc, nc * sizeof *cols);
      for (int l = 0; l < nc; l++)
        if (uses_stage_var (cols[l].extent, s))
          return *why = "an extent that moves with a loop", NULL;
      /* pb: X's other loops.  */
      int npb = 0;
      for (int l = 0; l < s->nloops - nc; l++)
        if (te_uses_var (xi, s->loops[l].var))
          pb[npb++] = s->loops[l];
      /* The pack stage: P[(pb K + kk) PIX + pix] = the term with X for
         the product (te_gemm_patches).  */
      char name[128];
      snprintf (name, sizeof name, "%s.col", ld[1 - w]->u.tensor->name);
      te_patches pp;
      if (!te_gemm_patches (q, name, st->dst->type, st->loc, pb, npb, red,
                            nr, cols, nc, true, &pp))
        return *why = "an extent that moves with a loop", NULL;
      te_tensor *pt = pp.t;
      te_node *lin_pb = pp.lin_b, *n_kk = pp.n_kk, *n_pix = pp.n_pix;
      /* The selects' tests as the statement's guard (the temporary
         starts zeroed, and plugin/forward.cc's clip turns the tests
         into the loops' bounds), unless a select has its 0 first.  */
      te_node *guard = guard_of (ctx, body);
      if (guard == body)
        te_gemm_pack (q, &pp, pb, npb, red, nr, cols, nc,
                      te_replace (ctx, body, rest, ld[1 - w]), NULL, s->loc,
                      st->loc);
      else
        te_gemm_pack (q, &pp, pb, npb, red, nr, cols, nc, ld[1 - w], guard,
                      s->loc, st->loc);
      /* The product's loops: the stage's but the columns, then pix and
         kk, new counters.  */
      int pix = te_program_new_var (q, "pix"), kk = te_program_new_var (q, "kk");
      int n = 0;
      for (int l = 0; l < s->nloops - nc; l++)
        loops[n++] = s->loops[l];
      loops[n].var = pix;
      loops[n].extent = n_pix;
      loops[n].lanes = 0;
      loops[n++].start = NULL;
      loops[n].var = kk;
      loops[n].extent = n_kk;
      loops[n].lanes = 0;
      loops[n++].start = NULL;
      *nloops = n;
      int cv[TE_MAX_LOOPS], rv[TE_MAX_LOOPS];
      for (int l = 0; l < nc; l++)
        cv[l] = cols[l].var;
      for (int l = 0; l < nr; l++)
        rv[l] = red[l].var;
      *index = te_canon_int (ctx, te_binary (ctx, TE_ADD,
                                             at_zero (ctx, st->index, cv, nc),
                                             te_var (ctx, pix)));
      te_node *wnew = te_canon_int (
          ctx, te_binary (ctx, TE_ADD, at_zero (ctx, wi, rv, nr),
                          te_binary (ctx, TE_MUL, wstep, te_var (ctx, kk))));
      te_node *pnew = te_gemm_patch_index (ctx, &pp, lin_pb, te_var (ctx, kk),
                                           te_var (ctx, pix));
      te_node *v = te_binary (ctx, TE_MUL, te_load (ctx, ld[w]->u.tensor, wnew),
                              te_load (ctx, pt, pnew));
      return consts ? te_binary (ctx, TE_MUL, consts, v) : v;
    }
  return *why = "no factor the summed loops move as one counter", NULL;
}

te_program *
te_gemm_forward (te_program *p, int si, te_gemm *g, const char **why)
{
  te_ctx *ctx = p->ctx;
  const te_stage *s = &p->stages[si];
  /* Step 1.  */
  te_node *r = the_sum (p, s, why);
  if (!r)
    return NULL;
  const te_stmt *st = &s->stmts[0];
  te_tensor *dst = st->dst;
  te_node *v = st->value, *init = r->args[0];
  if (!addressable (dst) || dst->kind == TE_TK_STATIC
      || dst->kind == TE_TK_SCALAR)
    return *why = "its destination is no array of the kernel", NULL;
  if (te_reads (v, dst) || te_reads (st->index, dst))
    return *why = "reads its destination", NULL;
  if (reads_unaddressable (p, v) || reads_unaddressable (p, st->index))
    return *why = "reads an optional pointer or an array the lifter made",
           NULL;
  /* Step 2.  */
  te_node *scale, *div;
  te_node *body = split_scale (ctx, r->args[1], r, dst->type, &scale, &div);
  /* Step 3: C = init (0 with a scale), C += body, then the rest of the
     value over C's element in place of the sum.  */
  char name[256];
  snprintf (name, sizeof name, "%s.blas%d", p->name, si);
  te_program *q = te_program_new (ctx, name);
  for (int i = 0; i < p->nparams; i++)
    {
      const te_param *pr = &p->params[i];
      te_program_add_param (q, pr->name, pr->kind, pr->type, pr->loc);
    }
  te_tensor *locals[TE_MAX_LOOPS * 4];
  int nlocals = 0;
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (t != dst && !te_reads (v, t) && !te_reads (st->index, t))
        continue;
      if (t->kind != TE_TK_LOCAL)
        te_program_share_tensor (q, t);
      else if (nlocals < TE_MAX_LOOPS * 4)
        locals[nlocals++] = t;
      else
        return *why = "too many local arrays", NULL;
    }
  for (int i = 0; i < p->nvars; i++)
    {
      te_program_new_var (q, p->var_names[i]);
      te_program_set_var_loop (q, i, te_program_var_loop (p, i));
    }
  te_node *elem = te_load (ctx, dst, st->index);
  te_node *sum = elem;
  if (scale || div)
    {
      if (scale)
        sum = te_binary (ctx, TE_MUL, sum, scale);
      if (div)
        sum = te_binary (ctx, TE_DIV, sum, div);
      sum = te_binary (ctx, TE_ADD, init, sum);
      init = te_float (ctx, dst->type, 0.0);
    }
  te_node *post = v == r && sum == elem ? NULL : te_replace (ctx, v, r, sum);
  /* The product's loops, index and value: the stage's, the sum's
     loop, or im2col's.  */
  te_loop loops[TE_MAX_LOOPS];
  int nloops = 0;
  te_node *cindex = st->index;
  if (r->u.red.nloops == 1)
    {
      for (int l = 0; l < s->nloops; l++)
        loops[nloops++] = s->loops[l];
      loops[nloops++] = r->u.red.loops[0];
    }
  else
    {
      te_node *rest = unguarded (body);
      if (s->nloops + 2 > TE_MAX_LOOPS || !rest)
        return *why = "not a product of two arrays", NULL;
      body = im2col (q, s, r, body, rest, loops, &nloops, &cindex, why);
      if (!body)
        return NULL;
    }
  te_stage *a = te_program_add_stage (q, s->loc);
  for (int l = 0; l < s->nloops; l++)
    te_stage_add_loop (a, s->loops[l].var, s->loops[l].extent);
  te_stage_add_stmt (q, a, dst, st->index, TE_SET, init, NULL, st->loc);
  int bi = q->nstages;
  te_stage *b = te_program_add_stage (q, s->loc);
  for (int l = 0; l < nloops; l++)
    te_stage_add_loop (b, loops[l].var, loops[l].extent);
  te_stage_add_stmt (q, b, dst, cindex, TE_ADD_TO, body, NULL, st->loc);
  b->blas = true;
  if (post)
    {
      te_stage *c = te_program_add_stage (q, s->loc);
      for (int l = 0; l < s->nloops; l++)
        te_stage_add_loop (c, s->loops[l].var, s->loops[l].extent);
      te_stage_add_stmt (q, c, dst, st->index, TE_SET, post, NULL, st->loc);
    }
  /* Step 4.  */
  locals_as_params (q, locals, nlocals);
  /* Step 5 (q's stages may have moved as it grew).  */
  b = &q->stages[bi];
  if (!te_gemm_match (q, b, 0, g, why))
    return NULL;
  /* Step 5: te_rows_apart places the loops by their steps in any order
     (attention's heads between a row's elements too).  */
  te_node *index = te_canon_int (ctx, st->index);
  int none = 0;
  const te_loop *in = NULL;
  if (!te_rows_apart (ctx, s->nloops, s->loops, 1, &index, &none, &in, s,
                      NULL, NULL))
    return *why = "rows of the destination that may overlap", NULL;
  return q;
}
