/* schedule.c -- loop order of the backward program's statements.

   Before:  for i < n, j < m, p < k:  d_w[p*m + j] += d0[i*m + j] * x[i*k + p];
   After:   for i < n, p < k, j < m:  d_w[p*m + j] += d0[i*m + j] * x[i*k + p];

   The AD gives every adjoint statement the forward's loop order, which
   for a contraction's adjoints walks memory with a large stride in the
   innermost loop, and GCC's vectorizer then gives up.  Any loop order
   computes the same statement: it only adds to elements, and the terms
   for one element keep their relative order along every loop that runs
   forwards.  (The order of the terms of one element does change when
   two loops its index does not use swap: floating-point sums may differ
   in their last bits.)

   1. Split every stage that is not fused into one stage per statement,
      so each statement can have its own order.
   2. For a statement whose loops all have extents free of counters,
      move innermost the loop with the best score: +1 for each access it
      walks with unit stride, -3 for each it walks with a larger stride,
      the written element counting +2 (a unit-stride store vectorizes
      without reassociating a sum; a sum into one element does not),
      -2 for a loop of a constant extent below 16 (a convolution's
      window: the vectorizer splits it, lanes.c leaves it alone).
      Ties go to the forward's innermost loop.  The other loops keep
      their order.
   2b. A plane: when every access the innermost loop L moves, it moves
      by one element, and a step of another loop M moves it by L's
      extent (M and L walk the access as one flat loop, rows and
      columns of an image), and M moves no access that L leaves in
      place, M may go just outside L (the innermost such M; none of the
      loops that then run outside it may be bounded by its counter).
      It does for a statement that adds to a floating-point element
      neither M nor L moves (a sum across the plane), and for the
      statements of its stage that walk the same plane, so that they
      still share a nest (step 3).  A convolution's adjoints
        for n, o, oh, ci, kh, kw, ow:  d_x[n][ci][oh+kh-1][ow+kw-1] += ..
                                       d_w[o][ci][kh][kw] += x[..] * d1[..]
      become for n, o, ci, kh, kw, oh, ow, the expert's order: d_w's
      element stays in place over a tap's whole plane, so lanes.c keeps
      its partial sums across the plane (step 5 there) instead of adding
      them to it for every row and tap, and d_x's terms come in the
      expert's order.
   3. Consecutive statements of one stage that get the same order go
      back into one loop nest (fused): they read nothing the others
      write, so each iteration may run them all.  (Two that add to one
      element at different iterations then add in another order.)

   Without a sum across it, a plane stays where step 2 left it: the
   adjoint of a sum over the first axis of x[i][j][k], d_x[i][j][k] +=
   d1[j][k] in the order j, i, k, keeps j outermost, where rows.c shares
   it with the nest that writes d1, which shrinks to a row.
   Limits of 2b: one loop, not a volume (depth, rows, columns); the
   plane's arrays are walked once per iteration of the loops now outside
   it, so a plane larger than the cache is read from memory that often
   (no tiling).

   A loop whose counter bounds a loop inside it (t in u < t + 1, a
   triangular domain) is no candidate: moving it innermost would leave
   u's bound undefined; any other loop may go innermost, the loops its
   own bound uses staying outside it (the others keep their order).
   A causal attention's adjoint of its scores, e_att[u] += v[u][i] *
   d1[i] over u < t + 1, i < hs, so gets i innermost, a dot product,
   instead of the forward's u innermost, a stride of a row of qkv.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct stride_count
{
  te_ctx *ctx;
  int var;
  int n;
} stride_count;

/* Does INDEX step by exactly one element when counter VAR does?  */
static bool
unit_stride (te_ctx *ctx, te_node *index, int var)
{
  return te_index_step (ctx, index, var) == 1;
}

/* A load that steps one element per iteration of the loop counts one;
   a load that steps by more counts minus three (a strided access defeats
   the vectorizer and the cache, which matters more than anything a unit
   stride gains); a load the loop does not move is free.  */
static void
count_loads (te_node *n, void *data)
{
  stride_count *c = data;
  if (n->op != TE_LOAD || n->u.tensor->kind == TE_TK_SCALAR)
    return;
  if (unit_stride (c->ctx, n->args[0], c->var))
    c->n++;
  else if (te_uses_var (n->args[0], c->var))
    c->n -= 3;
}

typedef struct plane_arg
{
  te_ctx *ctx;
  const te_loop *row, *col;
  bool ok;     /* no access against the rule */
  bool walked; /* some access walks the plane */
} plane_arg;

/* Does INDEX walk loops ROW and COL (in A) as one flat loop over a
   plane, a step of ROW being EXTENT(COL) unit steps of COL, or stay
   along both?  Clears A->ok when not.  */
static void
plane_index (plane_arg *a, te_node *index)
{
  te_ctx *ctx = a->ctx;
  int row = a->row->var, col = a->col->var;
  int step = te_index_step (ctx, index, col);
  if (step == 0)
    {
      if (te_uses_var (index, row))
        a->ok = false;
      return;
    }
  te_node *r = te_var (ctx, row), *c = te_var (ctx, col);
  te_node *down = te_replace (ctx, index, r, te_add (ctx, r, te_int (ctx, 1)));
  te_node *across = te_replace (ctx, index, c,
                                te_add (ctx, c, a->col->extent));
  if (step != 1 || te_canon_int (ctx, down) != te_canon_int (ctx, across))
    a->ok = false;
  else
    a->walked = true;
}

static void
plane_load (te_node *n, void *data)
{
  if (n->op == TE_LOAD && n->u.tensor->kind != TE_TK_SCALAR)
    plane_index (data, n->args[0]);
}

/* Step 2b: the loop of LOOPS (NLOOPS of them, the innermost chosen by
   step 2) that walks a plane with the innermost for statement ST, or
   -1.  */
static int
plane_row (te_ctx *ctx, const te_stmt *st, int nloops, const te_loop *loops)
{
  const te_loop *col = &loops[nloops - 1];
  for (int k = nloops - 2; k >= 0; k--)
    {
      /* The loops that move outside loop K must not be bounded by its
         counter, nor the innermost's extent use it.  */
      bool bounds = te_uses_var (col->extent, loops[k].var);
      for (int j = k + 1; j < nloops - 1; j++)
        bounds |= te_uses_var (loops[j].extent, loops[k].var);
      if (bounds)
        continue;
      plane_arg a = { ctx, &loops[k], col, true, false };
      plane_index (&a, st->index);
      te_walk (st->value, plane_load, &a);
      if (st->guard)
        te_walk (st->guard, plane_load, &a);
      if (a.ok && a.walked)
        return k;
    }
  return -1;
}

/* Does ST add to a floating-point element that neither VAR1 nor VAR2
   moves (a sum across their plane)?  */
static bool
plane_sum (const te_stmt *st, int var1, int var2)
{
  return st->op == TE_ADD_TO && te_type_is_float (st->dst->type)
         && !te_uses_var (st->index, var1) && !te_uses_var (st->index, var2);
}

/* Step 2b for statement ST of P: loop K of its NLOOPS LOOPS moved just
   outside the innermost.  */
static void
plane_move (te_program *p, const te_stmt *st, int nloops, te_loop *loops,
            int k)
{
  te_loop row = loops[k];
  int col = loops[nloops - 1].var;
  if (k < nloops - 2)
    te_program_note (p, "schedule: %s's loops %s and %s walk a plane: "
                     "%s runs just outside %s", st->dst->name,
                     te_program_var_name (p, row.var),
                     te_program_var_name (p, col),
                     te_program_var_name (p, row.var),
                     te_program_var_name (p, col));
  memmove (&loops[k], &loops[k + 1], (nloops - 2 - k) * sizeof *loops);
  loops[nloops - 2] = row;
}

/* Step 2 for statement ST of P over NLOOPS LOOPS, reordered in place.  */
static void
order_loops (te_program *p, const te_stmt *st, int nloops, te_loop *loops)
{
  te_ctx *ctx = p->ctx;
  int best = nloops - 1, best_score = -1;
  for (int k = 0; k < nloops; k++)
    {
      /* Loop K may go innermost when no loop inside it bounds its
         counter (u < t + 1 inside t < T keeps t outside u).  */
      bool bounds_inner = false;
      for (int j = k + 1; j < nloops; j++)
        bounds_inner |= te_uses_var (loops[j].extent, loops[k].var);
      if (bounds_inner)
        continue;
      stride_count c = { ctx, loops[k].var, 0 };
      te_walk (st->value, count_loads, &c);
      int score = c.n;
      if (unit_stride (ctx, st->index, loops[k].var))
        score += 2;
      else if (te_uses_var (st->index, loops[k].var))
        score -= 3;
      if (!te_lanes_long_loop (&loops[k]))
        score -= 2;
      if (score > best_score || (score == best_score && k == nloops - 1))
        {
          best = k;
          best_score = score;
        }
    }
  te_loop inner = loops[best];
  memmove (&loops[best], &loops[best + 1],
           (nloops - 1 - best) * sizeof *loops);
  loops[nloops - 1] = inner;
}

/* Steps 2 and 2b for the NSTMTS statements STMTS of one stage (their
   loops NLOOPS of LOOPS), each order into ORDERS (NSTMTS rows of
   TE_MAX_LOOPS); a statement of its own loops or of a reversed stage
   (REVERSED) keeps the stage's.  */
static void
order_stage (te_program *p, const te_stmt *stmts, int nstmts, int nloops,
             const te_loop *loops, bool reversed,
             te_loop (*orders)[TE_MAX_LOOPS])
{
  int rows[nstmts ? nstmts : 1];
  int row = -1, col = -1; /* the plane a statement sums across */
  for (int k = 0; k < nstmts; k++)
    {
      memcpy (orders[k], loops, sizeof orders[k]);
      rows[k] = -1;
      if (stmts[k].ninner || reversed)
        continue;
      order_loops (p, &stmts[k], nloops, orders[k]);
      rows[k] = plane_row (p->ctx, &stmts[k], nloops, orders[k]);
      int r = rows[k] >= 0 ? orders[k][rows[k]].var : -1;
      int c = orders[k][nloops - 1].var;
      if (r >= 0 && row < 0 && plane_sum (&stmts[k], r, c))
        row = r, col = c;
    }
  for (int k = 0; k < nstmts && row >= 0; k++)
    if (rows[k] >= 0 && orders[k][rows[k]].var == row
        && orders[k][nloops - 1].var == col)
      plane_move (p, &stmts[k], nloops, orders[k], rows[k]);
}

bool
te_program_schedule (te_program *p, te_diag *diag)
{
  int n;
  te_stage *old = te_program_take_stages (p, &n);
  for (int s = 0; s < n; s++)
    {
      const te_stage *os = &old[s];
      if (os->fused || os->nstmts <= 1)
        {
          te_stage *ns = te_program_add_stage (p, os->loc);
          *ns = *os;
          if (!os->fused && os->nstmts == 1)
            order_stage (p, &ns->stmts[0], 1, ns->nloops, os->loops,
                         os->reversed, &ns->loops);
          continue;
        }
      te_loop (*orders)[TE_MAX_LOOPS] = malloc (os->nstmts * sizeof *orders);
      if (!orders)
        {
          te_diag_set (diag, TE_DIAG_INTERNAL, os->loc, "out of memory");
          return false;
        }
      order_stage (p, os->stmts, os->nstmts, os->nloops, os->loops,
                   os->reversed, orders);
      int prev = -1; /* the stage the previous statement went to */
      for (int k = 0; k < os->nstmts; k++)
        {
          const te_stmt *st = &os->stmts[k];
          te_loop *loops = orders[k];
          /* Step 3: statements of one stage that want the same order
             share one loop nest.  */
          te_stage *ns;
          if (prev >= 0 && !st->ninner && !p->stages[prev].stmts[0].ninner
              && te_loops_equal (loops, p->stages[prev].loops,
                                 os->nloops))
            {
              ns = &p->stages[prev];
              ns->fused = true;
            }
          else
            {
              ns = te_program_add_stage (p, os->loc);
              *ns = *os;
              ns->nstmts = 0;
              ns->stmts = NULL;
              memcpy (ns->loops, loops, sizeof ns->loops);
              prev = p->nstages - 1;
            }
          te_stmt *c = te_stage_add_stmt (p, ns, st->dst, st->index, st->op,
                                          st->value, st->guard, st->loc);
          c->ninner = st->ninner;
          c->inner = st->inner;
        }
      free (orders);
    }
  return true;
}
