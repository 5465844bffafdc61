/* lanes.c -- innermost loops that GCC vectorizes at -O2 and sums that it
   vectorizes at all.

   Before:  for i < n, p < k, j < m:  d_x[p + k*i] += w[j + m*p] * d1[j];
                                      d_w[j + m*p] += x[p + k*i] * d1[j];
   After:   the same statements; loop j runs in lanes (te_loop.lanes = 8)
            and d_x's statement sums in lanes (te_stmt.lanes_sum), which
            the back ends print as
              float d_x_l[8] = { 0 };
              long j8 = 0;
              for (; j8 + 8 <= m; j8 += 8)
                for (long l = 0; l < 8; l++)
                  { long j = j8 + l;  d_x_l[l] += w[..] * d1[j];  d_w[..] += ..; }
              for (long l = 0; j8 + l < m; l++)
                { long j = j8 + l;  (the same body) }
              d_x[p + k*i] += ((d_x_l[0] + d_x_l[4]) + ...);
   GCC 12 at -O2 vectorizes only loops that need no epilogue
   (-fvect-cost-model=very-cheap), which a loop of unknown trip count
   does: but it unrolls the inner loop of 8 iterations and its SLP
   vectorizer packs the eight copies.  And without -ffast-math GCC
   vectorizes no floating-point sum into one element at any level, as
   it may not reassociate it: eight partial sums, added at the end, are
   that reassociation made by us (the order of summation changes, as
   BLAS's does; the README says so).

   1. A statement's innermost loop is its own innermost loop, or its
      stage's when it has none.  The loop may run in lanes when its
      extent is not a constant below 16, it runs forwards, and every
      statement directly inside it is plain arithmetic on loads
      (no reduction, no call of the math library but fabs), each load
      and the store stepping 0 or 1 element per iteration.  A stage's
      innermost loop needs every statement of the stage to have no loop
      of its own (else loops nest inside it).
   2. A floating-point addition statement whose element does not move
      along that loop and whose value does not read it sums in lanes;
      along the stage's loop, only when no other statement of the stage
      reads or writes its array (the partial sums reach it after the
      stage's loop).
   3. A floating-point sum reduction whose term is such arithmetic runs
      its innermost loop in lanes, its accumulator in lanes.
   4. When the compiler vectorizes loops that leave a scalar rest
      (te_program.vect_rest: GCC at -O3), a loop runs in lanes only when
      a statement sums in its lanes (step 2; along a statement's own
      loop, any statement of the stage with the same loops of its own,
      which the lowering may run in one nest with it); reductions (step
      3) as before.  GCC vectorizes the plain loops itself there, and
      better: a batch norm's gradient took 1.15 times as long at -O3
      with its sum-free loops in lanes.
   5. A statement that sums in lanes of its innermost loop L keeps its
      partial sums across the loops directly outside L in its nest (its
      own loops, or the stage's when it has none) along which its
      element does not move either (te_stmt.lanes_span): a
      convolution's d_w[o][ci][kh][kw] over a tap's plane of output
      rows and columns, for oh, for ow in lanes.  The back ends give
      each loop of the span 8 partial sums of its own: those of L are
      zeroed before each run of L and added lane by lane into those of
      the loop around after it, and so on out; the outermost's are added
      pairwise to the element after it:
        float d_w_l2[8] = { 0 };
        for oh:  { float d_w_l[8] = { 0 };  (L in lanes into d_w_l)
                   for l < 8: d_w_l2[l] += d_w_l[l]; }
        d_w[..] += ((d_w_l2[0] + d_w_l2[4]) + ...);
      A stage's outermost loop that runs on OpenMP threads (parallel.c,
      later) ends the span in emit.cc: the partial sums reach the
      element (each thread's copy) after every iteration of it; dump-c,
      which runs such a stage serially, spans it.
      Row by row (span 1), the element got the 8 partials of every run
      of L: the horizontal additions and the store ran for every row
      and tap, and conv2d's gradient took 1.12 times as long as the
      expert's at -O3 (bench/conv2d_ref.c keeps a row of partial sums
      across the plane); spanned, 1.02 to 1.07 (the thread's CPU time
      per call, a harness calling both alternately on a loaded
      machine), and 0.4 at -O2.
   6. Where the compiler vectorizes loops with a rest (step 4) and its
      vectors hold 8 floats or more (te_program.wide_vectors: AVX, or
      the versions of target-clones), a loop runs in 32 lanes, not 8:
      a sum in 8 lanes is one vector of partial sums there, each
      iteration's addition waiting for the last one's, and a layer
      norm's gradient spent a third of its time in two such chains
      (its row's mean and variance computed again); in 32, four
      vectors, it took 0.116 ms against 0.134 (bench/layernorm.c, one
      thread, AVX-512 CPU; 16 lanes 0.127, 64 lanes 0.16).  Without
      AVX, 8: make bench's -O3 gradients (SSE2) took up to 1.13 times
      as long in 32 (layernorm_stats).
   Running a loop in lanes is the same iterations in the same order;
   only lanes_sum and the reductions change the order of a sum.

   Accuracy (float): a partial sum is a chain of rounded additions, and
   the error of a sum grows with the longest chain a term goes through.
   Row by row, a lane adds E/8 terms of a run of L (extent E) and the
   element then R * P totals (R runs of the loop around, P of the loops
   further out): chains of E/8 + 3 + R * P.  A span keeps a level per
   loop, so the chains are E/8 + R + 3 + P, never longer (R + P <=
   R * P + 1): a span never loses accuracy over row by row, for any
   sizes.  One flat set of 8 partials across the plane would have chains
   of E * R / 8, longer than row by row when E / 8 > P; conv2d's d_w (E
   = R = 32, P = 8) measured 2.1e-7 against double that way, 4.5e-7 row
   by row, 1.6e-7 with the levels, the expert's 1.5e-7 (bench's gen
   err, the worst over d_x, d_w and d_b: 7.1e-7 for both, d_x's, whose
   sums schedule.c's plane order makes the expert's to the bit).  The
   levels cost time: a flat set took conv2d 0.97 to 1.0 times the
   expert's time at -O3, the levels 1.0 to 1.05 (GCC keeps the 8 partial
   sums of the span in scalar registers and adds them one by one after
   each row); with -march=native the flat set took 1.27, the levels
   0.96 to 1.03.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <stdio.h>
#include <string.h>

enum { LANES = 8, WIDE_LANES = 32, MIN_TRIP = 16 };

/* The lanes of P's loops (step 6).  */
static int
lanes_of (const te_program *p)
{
  return p->vect_rest && p->wide_vectors ? WIDE_LANES : LANES;
}

typedef struct plain
{
  te_ctx *ctx;
  int var;
  bool ok;
} plain;

static void
plain_node (te_node *n, void *data)
{
  plain *a = data;
  switch (n->op)
    {
    case TE_REDUCE:
      a->ok = false;
      break;
    case TE_LOAD:
      if (te_index_step (a->ctx, n->args[0], a->var) < 0)
        a->ok = false;
      break;
    TE_CASE_MATH:
      if (n->op != TE_FABS)
        a->ok = false;
      break;
    default:
      break;
    }
}

/* Is N (may be NULL) plain arithmetic on loads that step 0 or 1 along
   VAR?  */
static bool
plain_in (te_ctx *ctx, te_node *n, int var)
{
  plain a = { ctx, var, true };
  if (n)
    te_walk (n, plain_node, &a);
  return a.ok;
}

bool
te_lanes_long_loop (const te_loop *l)
{
  const te_node *e = l->extent;
  return !(e->op == TE_CONST && !te_type_is_float (e->type)
           && e->u.i < MIN_TRIP);
}

/* Does statement K of S sum into one element along VAR, and, when VAR
   is the stage's (SHARED), alone with its array in S?  Along a loop of
   its own, the partial sums reach the element right after the loop,
   before any later statement reads it, and the statements that run in
   that loop with it (lib/back/lower.c's runs) read no destination of
   another.  */
static bool
sums_alone (const te_stage *s, int k, int var, bool shared)
{
  const te_stmt *x = &s->stmts[k];
  if (x->op != TE_ADD_TO || !te_type_is_float (x->dst->type)
      || te_uses_var (x->index, var) || te_reads (x->value, x->dst)
      || (x->guard && te_reads (x->guard, x->dst)))
    return false;
  for (int o = 0; shared && o < s->nstmts; o++)
    {
      const te_stmt *y = &s->stmts[o];
      if (o != k && (y->dst == x->dst || te_reads (y->value, x->dst)
                     || (y->guard && te_reads (y->guard, x->dst))
                     || te_reads (y->index, x->dst)))
        return false;
    }
  return true;
}

/* May statement K of S run in lanes of its innermost loop L, the
   stage's when SHARED; sets *SUM when it sums there.  */
static bool
stmt_fits (te_program *p, const te_stage *s, int k, const te_loop *l,
           bool shared, bool *sum)
{
  const te_stmt *x = &s->stmts[k];
  *sum = false;
  if (!plain_in (p->ctx, x->value, l->var)
      || !plain_in (p->ctx, x->guard, l->var)
      || !plain_in (p->ctx, x->index, l->var))
    return false;
  int st = te_index_step (p->ctx, x->index, l->var);
  if (st == 1)
    return true;
  if (st == 0 && sums_alone (s, k, l->var, shared))
    {
      *sum = true;
      return true;
    }
  return false;
}

typedef struct red_arg
{
  te_program *p;
  int n;
} red_arg;

static void
reduction_lanes (te_node *n, void *data)
{
  red_arg *a = data;
  if (n->op != TE_REDUCE || n->u.red.kind != TE_RED_SUM
      || !te_type_is_float (n->type) || !n->u.red.nloops)
    return;
  te_loop *l = &n->u.red.loops[n->u.red.nloops - 1];
  if (l->lanes || !te_lanes_long_loop (l)
      || !plain_in (a->p->ctx, n->args[1], l->var))
    return;
  l->lanes = lanes_of (a->p);
  a->n++;
}

/* Does a statement of S with the loops of its own of statement K sum
   in lanes of them (FITS and SUMS, per statement, say which may run in
   lanes and which sum there)?  */
static bool
sum_beside (const te_stage *s, const bool *fits, const bool *sums, int k)
{
  const te_stmt *x = &s->stmts[k];
  for (int o = 0; o < s->nstmts; o++)
    if (fits[o] && sums[o] && s->stmts[o].ninner == x->ninner
        && te_loops_equal (s->stmts[o].inner, x->inner, x->ninner))
      return true;
  return false;
}

/* Statement X sums in lanes of the last of the NLOOPS LOOPS of its nest
   (step 5: and across the loops directly outside it that leave its
   element in place).  */
static void
sum_in_lanes (te_program *p, te_stmt *x, int nloops, const te_loop *loops)
{
  x->lanes_sum = true;
  int span = 1;
  while (span < nloops
         && !te_uses_var (x->index, loops[nloops - 1 - span].var))
    span++;
  x->lanes_span = span;
  const te_loop *l = &loops[nloops - 1];
  if (span == 1)
    te_program_note (p, "lanes: %s sums in %d lanes of loop %s",
                     x->dst->name, lanes_of (p),
                     te_program_var_name (p, l->var));
  else
    {
      char across[256] = "";
      size_t len = 0;
      for (int k = nloops - span; k < nloops - 1 && len < sizeof across; k++)
        len += snprintf (across + len, sizeof across - len, "%s%s",
                         len ? ", " : "", te_program_var_name (p, loops[k].var));
      te_program_note (p, "lanes: %s sums in %d lanes of loop %s, across "
                       "loop(s) %s", x->dst->name, lanes_of (p),
                       te_program_var_name (p, l->var), across);
    }
}

bool
te_program_lanes (te_program *p, te_diag *diag)
{
  (void) diag;
  int nloops = 0;
  red_arg ra = { p, 0 };
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      bool stage_ok = s->nloops && !s->reversed && s->nstmts
                      && te_lanes_long_loop (&s->loops[s->nloops - 1]);
      for (int k = 0; k < s->nstmts; k++)
        if (s->stmts[k].ninner)
          stage_ok = false;
      bool sums[s->nstmts ? s->nstmts : 1];
      for (int k = 0; stage_ok && k < s->nstmts; k++)
        if (!stmt_fits (p, s, k, &s->loops[s->nloops - 1], true, &sums[k]))
          stage_ok = false;
      bool any_sum = false;
      for (int k = 0; stage_ok && k < s->nstmts; k++)
        any_sum |= sums[k];
      if (stage_ok && p->vect_rest && !any_sum)
        stage_ok = false;
      if (stage_ok)
        {
          s->loops[s->nloops - 1].lanes = lanes_of (p);
          nloops++;
          for (int k = 0; k < s->nstmts; k++)
            if (sums[k])
              sum_in_lanes (p, &s->stmts[k], s->nloops, s->loops);
        }
      bool fits[s->nstmts ? s->nstmts : 1];
      for (int k = 0; k < s->nstmts; k++)
        {
          te_stmt *x = &s->stmts[k];
          te_loop *l = x->ninner ? &x->inner[x->ninner - 1] : NULL;
          fits[k] = l && te_lanes_long_loop (l)
                    && stmt_fits (p, s, k, l, false, &sums[k]);
        }
      for (int k = 0; k < s->nstmts; k++)
        {
          te_stmt *x = &s->stmts[k];
          te_loop *l = x->ninner ? &x->inner[x->ninner - 1] : NULL;
          bool sum = fits[k] && sums[k];
          if (fits[k] && (!p->vect_rest || sum_beside (s, fits, sums, k)))
            {
              l->lanes = lanes_of (p);
              nloops++;
              if (sum)
                sum_in_lanes (p, x, x->ninner, x->inner);
            }
          te_walk (x->value, reduction_lanes, &ra);
          if (x->guard)
            te_walk (x->guard, reduction_lanes, &ra);
        }
    }
  if (nloops || ra.n)
    te_program_note (p, "lanes: %d loop(s) run in lanes of %d, %d "
                     "reduction(s) sum in lanes", nloops + ra.n,
                     lanes_of (p), ra.n);
  return true;
}
