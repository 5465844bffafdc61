/* patches.c -- a convolution's gradient as matrix products over its
   patches (im2col), which the pass blas then runs as CBLAS calls
   (-fplugin-arg-tensorgrad-blas) or, without the option, as the tiled
   product of lib/back/tiled.h.

   Before (bench/conv2d.c's gradient after fold; G the padding's tests
   0 <= oh + kh - 1 < h && 0 <= ow + kw - 1 < w):
       stage 1: for n < nb, o < f, oh < h, ow < w, ci < c, kh < 3, kw < 3:
         if (G) d_x[((n c + ci) h + oh + kh - 1) w + ow + kw - 1]
                  += wt[((o c + ci) 3 + kh) 3 + kw] * d_y[((n f + o) h + oh) w + ow];
         if (G) d_wt[((o c + ci) 3 + kh) 3 + kw]
                  += x[((n c + ci) h + oh + kh - 1) w + ow + kw - 1] * d_y[...];
   After (kk = (ci 3 + kh) 3 + kw, pix = oh w + ow, P[n][kk][pix] the
   layout of the forward's im2col, lib/ir/gemm.c te_gemm_patches):
       stage 1: for n < nb, o < f, kk < c 9, pix < h w:
         d_x.col[(n c 9 + kk) h w + pix] += wt[o c 9 + kk] * d_y[(n f + o) h w + pix];
       stage 2: for n < nb, ci < c, kh < 3, kw < 3, oh < h, ow < w:
         if (G) d_x[...] += d_x.col[(n c 9 + (ci 3 + kh) 3 + kw) h w + oh w + ow];
       stage 3: for n < nb, ci < c, kh < 3, kw < 3, oh < h, ow < w:
         if (G) x.col[(n c 9 + (ci 3 + kh) 3 + kw) h w + oh w + ow] = x[...];
       stage 4: for n < nb, o < f, kk < c 9, pix < h w:
         d_wt[o c 9 + kk] += d_y[(n f + o) h w + pix] * x.col[(n c 9 + kk) h w + pix];
   so that blas.c reads stage 1 as d_x.col = wt^T * d_y and stage 4 as
   d_wt = d_y * x.col^T, each one call per sample n; stage 2 is col2im,
   stage 3 im2col, both clipped to the padding by clip.c.

   1. A statement of a stage that is not a call, fused, reversed,
      recurrent or blas, with no loops of its own, that adds (+=) a
      product of floating constants and two loads of its type, under no
      guard or a guard of counters and sizes only (the padding's tests).
      Its three arrays (the destination and the two loads) are distinct
      and each index is affine in the stage's counters.
   2. The patched array T is one of the three whose index has a window:
      every loop moves exactly two of the three arrays, T and one other
      (group 1, the taps ci, kh, kw with the weights), T and the third
      (group 2, n, oh, ow with the output's adjoint), or the other two
      only (the product's remaining loops, o), which the guard does not
      read; and a loop of group 1 steps T as far as one of group 2 does
      (kw and ow: the patches overlap).  Without a window (a 1x1
      convolution) the statement is a product already, or not one.
   3. In each group, the innermost loops in the stage's order that move
      the group's other array as one counter would (a dense chain, as
      im2col's columns) become one counter, kk or pix; the group's
      outer loops are batch loops b (the samples n).
   4. The temporary P[b][kk][pix] (te_gemm_patches).  T a load: a
      stage packs T into P where the guard holds (P starts zeroed), and
      the product stage adds the other load times P into the
      destination.  T the destination: the product stage adds the two
      loads' product into P, and a stage adds P back into T where the
      guard holds (col2im).
   5. The product stage must be one that te_gemm_match reads; P's two
      layouts are tried, the group whose array the batch loops move
      (the activations' pixels) innermost first.  Otherwise the
      statement stays as it was.

   When: with the blas option, or without it as an optimization (the
   tiled product), like blas.c; also when the gradient runs on OpenMP
   threads (the forward's parallel loops, the option parallel): the
   CBLAS runs on its own threads, the tiled product on the gradient's
   (each thread a block of columns, as blas.c says), and on bench/conv2d.c
   (-fopenmp, -O3 -march=native, OpenBLAS, a loaded machine) the
   gradient took 4.9 ms on one thread and 5.3 on two, against 21 and
   18 ms for the loops on the threads (parallel.c leaves the packing
   serial).  Nor for a product whose size M N K is a constant below
   tiled.h's TE_TILED_MIN_MNK: the loops are as fast there and pack
   nothing.  The back ends still run a product's loops at run time when
   its sizes do not suit the BLAS or the tiled test.

   Numbers: a product sums each element's terms in the BLAS's or the
   tiled nest's order, and d_x's terms are summed over o first, then
   over the taps: the results agree with the statement's loops up to
   the order of summation.  The temporaries are made per batch (nb c 9
   h w elements each, a packed load's rows a cache line longer:
   te_gemm_patches), allocated once per call, zeroed; samples.c then
   gives them one sample's size where the products and the stages
   between them run sample by sample.

   Limits: a product with a factor the kernel tests against NULL (an
   optional pointer) that is not the patched one, a sum of several
   products, a third varying factor (a mask), a guard that reads data
   or the product's own loops, a group whose loops are not a dense
   chain of the other array, and strided windows whose taps do not step
   T as the pixels do all stay loops.  The packing runs when d_wt is
   NULL too (the product is skipped; lower.c step 6b skips d_x.col's
   product with col2im when d_x is NULL).  */

#include "passes/passes.h"
#include "back/tiled.h"
#include "ir/gemm.h"
#include "ir/index.h"

#include <stdio.h>
#include <string.h>

/* The three arrays of a statement: 0 the destination, 1 and 2 the
   loads.  */
typedef struct access
{
  te_tensor *t;
  te_node *index;
} access;

/* A statement read as a product (step 1).  */
typedef struct product
{
  access a[3];
  double alpha;
  te_node *guard;
} product;

static bool
int_zero (const te_node *n)
{
  return n->op == TE_CONST && n->u.i == 0;
}

/* Step 1: statement ST of S as a product into *PR, or false.  */
static bool
read_product (te_ctx *ctx, const te_stage *s, const te_stmt *st,
              product *pr, te_node *coef[3][TE_MAX_LOOPS])
{
  if (st->op != TE_ADD_TO || st->ninner
      || (st->dst->type != TE_F32 && st->dst->type != TE_F64))
    return false;
  if (st->guard && te_reads (st->guard, NULL))
    return false;
  pr->guard = st->guard;
  te_node *ld[2];
  if (!te_gemm_product (st->value, st->dst->type, &pr->alpha, ld))
    return false;
  for (int i = 0; i < 2; i++)
    {
      pr->a[i + 1].t = ld[i]->u.tensor;
      pr->a[i + 1].index = ld[i]->args[0];
    }
  pr->a[0].t = st->dst;
  pr->a[0].index = st->index;
  if (pr->a[0].t == pr->a[1].t || pr->a[0].t == pr->a[2].t
      || pr->a[1].t == pr->a[2].t)
    return false;
  for (int i = 0; i < 3; i++)
    if (!te_gemm_affine (ctx, s, pr->a[i].index, coef[i]))
      return false;
  for (int l = 0; l < s->nloops; l++)
    for (int m = 0; m < s->nloops; m++)
      if (te_uses_var (s->loops[l].extent, s->loops[m].var))
        return false;
  return true;
}

/* The plan for one statement (steps 2 and 3).  */
typedef struct plan
{
  int t;                  /* the patched array (0, 1 or 2) */
  int partner[2];         /* the other array of each group */
  te_loop b[TE_MAX_LOOPS], chain[2][TE_MAX_LOOPS], mid[TE_MAX_LOOPS];
  int nb, nchain[2], nmid;
  te_node *step[2];       /* the partner's step along its chain */
} plan;

/* Step 3: group G's loops LOOPS[0..N) (the stage's order): its chain
   the longest run of innermost ones dense in the partner's index, the
   rest to PL's batch loops.  */
static bool
split_group (te_ctx *ctx, plan *pl, int g, const te_loop *loops, int n,
             te_node *partner_index)
{
  for (int c = n; c > 0; c--)
    if (te_gemm_dense_chain (ctx, partner_index, loops + n - c, c,
                             &pl->step[g]))
      {
        memcpy (pl->chain[g], loops + n - c, c * sizeof *loops);
        pl->nchain[g] = c;
        for (int l = 0; l < n - c; l++)
          pl->b[pl->nb++] = loops[l];
        return true;
      }
  return false;
}

/* Step 2 for T: the groups of PR's loops in stage S, into *PL.  */
static bool
classify (te_ctx *ctx, const te_stage *s, const product *pr,
          te_node *coef[3][TE_MAX_LOOPS], int t, plan *pl)
{
  memset (pl, 0, sizeof *pl);
  pl->t = t;
  pl->partner[0] = t == 0 ? 1 : 0;
  pl->partner[1] = t == 2 ? 1 : 2;
  te_loop group[2][TE_MAX_LOOPS];
  int ng[2] = { 0, 0 };
  bool window = false;
  for (int l = 0; l < s->nloops; l++)
    {
      bool mt = !int_zero (coef[t][l]);
      bool m0 = !int_zero (coef[pl->partner[0]][l]);
      bool m1 = !int_zero (coef[pl->partner[1]][l]);
      if (mt && m0 && !m1)
        group[0][ng[0]++] = s->loops[l];
      else if (mt && m1 && !m0)
        group[1][ng[1]++] = s->loops[l];
      else if (!mt && m0 && m1)
        {
          if (pr->guard && te_uses_var (pr->guard, s->loops[l].var))
            return false;
          pl->mid[pl->nmid++] = s->loops[l];
        }
      else
        return false;
      if (!mt)
        continue;
      /* The window: a loop of the other group with the same step.  */
      for (int m = 0; m < l && !window; m++)
        {
          bool mm0 = !int_zero (coef[pl->partner[0]][m]);
          if (int_zero (coef[t][m]) || mm0 == m0)
            continue;
          window = te_canon_int (ctx, coef[t][m])
                   == te_canon_int (ctx, coef[t][l]);
        }
    }
  if (!window || !ng[0] || !ng[1] || !pl->nmid)
    return false;
  return split_group (ctx, pl, 0, group[0], ng[0],
                      pr->a[pl->partner[0]].index)
         && split_group (ctx, pl, 1, group[1], ng[1],
                         pr->a[pl->partner[1]].index);
}

/* Is the product's size M N K a constant below the tiled threshold?  */
static bool
small (te_ctx *ctx, const plan *pl)
{
  te_node *size = te_int (ctx, 1);
  for (int g = 0; g < 2; g++)
    for (int l = 0; l < pl->nchain[g]; l++)
      size = te_mul (ctx, size, pl->chain[g][l].extent);
  for (int l = 0; l < pl->nmid; l++)
    size = te_mul (ctx, size, pl->mid[l].extent);
  size = te_canon_int (ctx, size);
  return size->op == TE_CONST && size->u.i < TE_TILED_MIN_MNK;
}

/* The counters kk and pix of the products, made once per program.  */
typedef struct counters
{
  int v[2];
} counters;

/* Step 4's stages for plan PL of PR (statement ST of stage OS), in the
   order they run, appended to P: the packing (T a load), the product
   PROD with its statement PST, col2im (T the destination); P in *PP
   with group INNER's chain innermost.  */
static void
append (te_program *p, const te_stage *os, const te_stmt *st,
        const product *pr, const plan *pl, int inner, const te_patches *pp,
        const te_stage *prod, const te_stmt *pst)
{
  te_ctx *ctx = p->ctx;
  int outer = 1 - inner;
  const access *ta = &pr->a[pl->t];
  const te_loop *kl = pl->chain[outer], *pxl = pl->chain[inner];
  int nk = pl->nchain[outer], npx = pl->nchain[inner];
  if (pl->t != 0)
    te_gemm_pack (p, pp, pl->b, pl->nb, kl, nk, pxl, npx,
                  te_load (ctx, ta->t, ta->index), pr->guard, os->loc,
                  st->loc)->nest = os->nest;
  te_stage *ps = te_program_add_stage (p, os->loc);
  *ps = *prod;
  ps->stmts = NULL;
  ps->nstmts = 0;
  *te_stage_add_stmt (p, ps, NULL, NULL, TE_SET, NULL, NULL, 0) = *pst;
  if (pl->t == 0)
    {
      te_stage *c = te_program_add_stage (p, os->loc);
      c->nest = os->nest;
      for (int l = 0; l < pl->nb; l++)
        te_stage_add_loop (c, pl->b[l].var, pl->b[l].extent);
      for (int l = 0; l < nk; l++)
        te_stage_add_loop (c, kl[l].var, kl[l].extent);
      for (int l = 0; l < npx; l++)
        te_stage_add_loop (c, pxl[l].var, pxl[l].extent);
      te_stage_add_stmt (p, c, st->dst, st->index, TE_ADD_TO,
                         te_load (ctx, pp->t, pp->index), pr->guard, st->loc);
    }
  if (pl->t == 0)
    te_program_note (p, "patches: %s: a product into %s (%s by %s per "
                     "batch iteration), added back over the patches "
                     "(col2im)", st->dst->name, pp->t->name,
                     te_node_string (p, pp->n_kk),
                     te_node_string (p, pp->n_pix));
  else
    te_program_note (p, "patches: %s: the patches of %s packed into %s "
                     "(%s by %s per batch iteration), then a product",
                     st->dst->name, ta->t->name, pp->t->name,
                     te_node_string (p, pp->n_kk),
                     te_node_string (p, pp->n_pix));
}

/* Step 4 and 5 for plan PL of PR (statement ST of stage OS) with group
   INNER's chain innermost in P: append the stages to P and return true,
   or append nothing and return false.  */
static bool
rewrite (te_program *p, const te_stage *os, const te_stmt *st,
         const product *pr, const plan *pl, int inner, counters *cv)
{
  te_ctx *ctx = p->ctx;
  int outer = 1 - inner;
  const access *ta = &pr->a[pl->t];
  char name[128];
  snprintf (name, sizeof name, "%s.col", ta->t->name);
  te_patches pp;
  int ntensors = p->ntensors;
  /* A packed load's rows a cache line longer (te_gemm_patches); a
     destination's as long as the product's, which then fills it.  */
  if (!te_gemm_patches (p, name, st->dst->type, st->loc, pl->b, pl->nb,
                        pl->chain[outer], pl->nchain[outer],
                        pl->chain[inner], pl->nchain[inner], pl->t != 0,
                        &pp))
    return false;
  pp.t->role = TE_ROLE_TEMP;
  for (int g = 0; g < 2; g++)
    if (cv->v[g] < 0)
      cv->v[g] = te_program_new_var (p, g ? "pix" : "kk");
  /* The product's stage: the batch loops, the others, kk, pix.  */
  te_stage prod;
  memset (&prod, 0, sizeof prod);
  prod.nest = os->nest;
  prod.loc = os->loc;
  for (int l = 0; l < pl->nb; l++)
    te_stage_add_loop (&prod, pl->b[l].var, pl->b[l].extent);
  for (int l = 0; l < pl->nmid; l++)
    te_stage_add_loop (&prod, pl->mid[l].var, pl->mid[l].extent);
  te_stage_add_loop (&prod, cv->v[0], pp.n_kk);
  te_stage_add_loop (&prod, cv->v[1], pp.n_pix);
  /* Each partner's index along its chain as one counter.  */
  te_node *idx[3] = { NULL, NULL, NULL };
  for (int g = 0; g < 2; g++)
    {
      const access *x = &pr->a[pl->partner[g]];
      te_node *cnt = te_var (ctx, cv->v[g == outer ? 0 : 1]);
      idx[pl->partner[g]] = te_canon_int (
          ctx, te_binary (ctx, TE_ADD,
                          te_gemm_at_zero (ctx, x->index, pl->chain[g],
                                           pl->nchain[g]),
                          te_binary (ctx, TE_MUL, pl->step[g], cnt)));
    }
  te_node *pidx = te_gemm_patch_index (ctx, &pp, pp.lin_b,
                                       te_var (ctx, cv->v[0]),
                                       te_var (ctx, cv->v[1]));
  te_node *ld[3];
  for (int i = 1; i < 3; i++)
    ld[i] = i == pl->t ? te_load (ctx, pp.t, pidx)
                       : te_load (ctx, pr->a[i].t, idx[i]);
  te_node *value = te_binary (ctx, TE_MUL, ld[1], ld[2]);
  if (pr->alpha != 1.0)
    value = te_binary (ctx, TE_MUL, te_float (ctx, st->dst->type, pr->alpha),
                       value);
  te_stmt pst;
  memset (&pst, 0, sizeof pst);
  pst.dst = pl->t == 0 ? pp.t : st->dst;
  pst.index = pl->t == 0 ? pidx : idx[0];
  pst.op = TE_ADD_TO;
  pst.value = value;
  pst.loc = st->loc;
  prod.stmts = &pst;
  prod.nstmts = 1;
  te_gemm g;
  const char *why;
  if (!te_gemm_match (p, &prod, 0, &g, &why))
    {
      p->ntensors = ntensors;
      return false;
    }
  append (p, os, st, pr, pl, inner, &pp, &prod, &pst);
  return true;
}

/* Steps 1 to 5 for statement K of stage OS: true when its stages were
   appended to P.  */
static bool
patch_stmt (te_program *p, const te_stage *os, int k, counters *cv)
{
  te_ctx *ctx = p->ctx;
  const te_stmt *st = &os->stmts[k];
  product pr;
  te_node *coef[3][TE_MAX_LOOPS];
  if (!read_product (ctx, os, st, &pr, coef))
    return false;
  for (int t = 0; t < 3; t++)
    {
      plan pl;
      if (!classify (ctx, os, &pr, coef, t, &pl) || small (ctx, &pl))
        continue;
      /* The product loads the other two without the guard: not a
         pointer the kernel tests against NULL.  */
      if ((pl.partner[0] && pr.a[pl.partner[0]].t->optional)
          || pr.a[pl.partner[1]].t->optional)
        continue;
      /* The group whose array the batch loops move innermost first.  */
      int first = 1;
      for (int l = 0; l < os->nloops; l++)
        for (int b = 0; b < pl.nb; b++)
          if (os->loops[l].var == pl.b[b].var
              && !int_zero (coef[pl.partner[0]][l]))
            first = 0;
      if (rewrite (p, os, st, &pr, &pl, first, cv)
          || rewrite (p, os, st, &pr, &pl, 1 - first, cv))
        return true;
    }
  return false;
}

bool
te_program_patches (te_program *p, te_diag *diag)
{
  (void) diag;
  counters cv = { { -1, -1 } };
  int n;
  te_stage *old = te_program_take_stages (p, &n);
  for (int s = 0; s < n; s++)
    {
      const te_stage *os = &old[s];
      int rest = p->nstages;
      te_stage *ns = te_program_add_stage (p, os->loc);
      *ns = *os;
      if (os->call || os->fused || os->reversed || os->recurrent || os->blas
          || os->block_end || os->nstmts > 64)
        continue;
      bool done[64] = { false }, any = false;
      for (int k = 0; k < os->nstmts; k++)
        any |= done[k] = patch_stmt (p, os, k, &cv);
      if (!any)
        continue;
      ns = &p->stages[rest];
      ns->stmts = NULL;
      ns->nstmts = 0;
      for (int k = 0; k < os->nstmts; k++)
        if (!done[k])
          *te_stage_add_stmt (p, ns, NULL, NULL, TE_SET, NULL, NULL, 0)
              = os->stmts[k];
      if (!ns->nstmts)
        {
          memmove (&p->stages[rest], &p->stages[rest + 1],
                   (p->nstages - rest - 1) * sizeof *p->stages);
          p->nstages--;
        }
    }
  return true;
}
