/* clip.c -- a loop whose statements all run between two bounds on its
   counter runs between them, and its statements test them no more.

   Before:  stage 0: for n < N, o < F:
              for ci < C, kh < 3, kw < 3, oh < H, ow < W:
                if (0 <= oh + kh - 1 < H && 0 <= ow + kw - 1 < W)
                  d_x[...] += wt[...] * d1[W*oh + ow];
   After:   stage 0: for n < N, o < F:
              for ci < C, kh < 3, kw < 3,
                  max (0, 1 - kh) <= oh < min (H, H + 1 - kh),
                  max (0, 1 - kw) <= ow < min (W, W + 1 - kw):
                d_x[...] += wt[...] * d1[W*oh + ow];

   A convolution's zero padding written as a bounds test (the forward's
   `if (ih >= 0 && ih < h && iw >= 0 && iw < w)`) guards every adjoint
   statement with a test on the pixel loop's counter.  Inside the
   innermost loop that test is a branch per element: GCC vectorizes no
   conditional store without masked stores (-O3 at the default -march),
   and the 8 lanes of lanes.c land in 8 blocks that its SLP vectorizer
   does not pack (-O2).  An expert clips the loop's range per filter tap
   instead; so does this pass, for any test of the form V + R < 0 or
   -V + R < 0 on a loop's counter V, R a polynomial of sizes and outer
   counters.  A statement runs only where its guard holds, so the
   iterations outside the bounds do nothing, and the loop may skip them.

   1. The loops, innermost first: each statement's own loops (a loop of
      one statement), then, in a stage not reversed, the stage's loops
      but a parallel one (te_stage.par), which run every statement.
   2. For loop V, the comparisons of the conjunction of the guard of
      every statement it runs (te_conjunct_less, integers only), L < R,
      with L - R = c V + Q: c is 1 or -1, Q a polynomial (te_pure_poly)
      free of V and the counters of the loops inside V.  c = 1 bounds V
      above, V < -Q; c = -1 below, V >= Q + 1.  With several statements
      a comparison counts only when every one of them has it.
   3. The loop's extent becomes min (extent, -Q) and its start
      (te_loop.start) max (start, Q + 1); either is left as it is when
      the bound is surely no tighter, and replaced when it is surely
      tighter, whatever the kernel's integer parameters (a difference
      of counters and constants with no negative coefficient).  The comparisons used leave the guards
      (the guard is dropped when nothing is left).  Each loop clipped is
      noted.
   The pass runs last (after parallel, whose loop it leaves alone, and
   lanes, whose loops in lanes start at the start): the loops it makes
   are ones no earlier pass reads.  The back ends and the interpreter run
   START <= V < EXTENT.  The same iterations run the statements, in the
   same order: no value changes.

   Limits: a comparison whose counter has another coefficient (2 V < N),
   or whose other side reads data, stays in the guard; a disjunction
   (V < a || V > b) is not clipped; reduction loops inside a value are
   not clipped.  */

#include "passes/passes.h"
#include "ir/index.h"

enum { MAX_TERMS = 16 };

/* The comparisons of guard G, L < R as the difference D = L - R < 0,
   canonical, into DS; their number.  (A comparison of data is no
   polynomial, bound_on's first test.)  */
static int
guard_terms (te_ctx *ctx, te_node *g, te_node **ds)
{
  if (!g)
    return 0;
  te_node *ls[MAX_TERMS], *rs[MAX_TERMS];
  int n = te_conjunct_less (ctx, g, false, ls, rs, MAX_TERMS, NULL);
  for (int i = 0; i < n; i++)
    ds[i] = te_canon_int (ctx, te_sub (ctx, ls[i], rs[i]));
  return n;
}

/* Is D (D < 0) a bound on counter VAR, c VAR + Q with c = 1 or -1 and Q
   free of VAR and of the NIN counters IN?  Sets *C and *Q.  */
static bool
bound_on (te_ctx *ctx, te_node *d, int var, const int *in, int nin, int *c,
          te_node **q)
{
  if (!te_pure_poly (d) || !te_uses_var (d, var))
    return false;
  te_node *v = te_var (ctx, var);
  te_node *rest = te_canon_int (ctx, te_replace (ctx, d, v, te_int (ctx, 0)));
  te_node *step = te_canon_int (
      ctx, te_sub (ctx, te_replace (ctx, d, v, te_add (ctx, v,
                                                       te_int (ctx, 1))),
                   d));
  if (step->op != TE_CONST || (step->u.i != 1 && step->u.i != -1)
      || te_uses_var (rest, var))
    return false;
  /* d is affine in VAR: d - step * VAR is REST everywhere.  */
  te_node *lin = te_canon_int (ctx, te_add (ctx, rest,
                                            te_mul (ctx, step, v)));
  if (lin != d)
    return false;
  for (int i = 0; i < nin; i++)
    if (te_uses_var (rest, in[i]))
      return false;
  *c = (int) step->u.i;
  *q = rest;
  return true;
}

static void
find_param (te_node *n, void *data)
{
  if (n->op == TE_PARAM)
    *(bool *) data = true;
}

/* Is integer N zero or more whatever the kernel's integer parameters
   are: a polynomial in counters (never negative) with no negative
   coefficient?  (te_non_negative takes the parameters for sizes; a
   padding or an offset need not be one.)  */
static bool
surely_non_negative (te_ctx *ctx, te_node *n)
{
  te_node *c = te_canon_int (ctx, n);
  bool param = false;
  te_walk (c, find_param, &param);
  return !param && !te_poly_negative (c);
}

/* Is D among the N terms DS?  */
static bool
has_term (te_node *const *ds, int n, const te_node *d)
{
  for (int i = 0; i < n; i++)
    if (ds[i] == d)
      return true;
  return false;
}

/* Guard C (negated with NEG) without the comparisons whose difference is
   among the N terms DS: NULL when nothing is left.  */
static te_node *
strip (te_ctx *ctx, te_node *c, bool neg, te_node *const *ds, int n)
{
  c = te_bool_of (ctx, c, &neg);
  if (c->op == TE_NOT)
    return strip (ctx, c->args[0], !neg, ds, n);
  if ((c->op == TE_AND && !neg) || (c->op == TE_OR && neg))
    {
      te_node *a = strip (ctx, c->args[0], neg, ds, n);
      te_node *b = strip (ctx, c->args[1], neg, ds, n);
      return !a ? b : !b ? a : te_binary (ctx, TE_AND, a, b);
    }
  te_node *l, *r;
  if (te_as_less (ctx, c, neg, &l, &r)
      && has_term (ds, n, te_canon_int (ctx, te_sub (ctx, l, r))))
    return NULL;
  return neg ? te_not (ctx, c) : c;
}

/* Clip loop L by the guards of the N statements XS it runs; INS are the
   counters of the loops inside it.  True if it changed.  */
static bool
clip_loop (te_program *p, te_loop *l, te_stmt **xs, int n, const int *ins,
           int nin)
{
  te_ctx *ctx = p->ctx;
  te_node *ds[MAX_TERMS], *used[MAX_TERMS];
  int nd = 0, nused = 0;
  for (int i = 0; i < n; i++)
    if (!xs[i]->guard)
      return false;
  nd = guard_terms (ctx, xs[0]->guard, ds);
  te_node *start = l->start ? l->start : te_int (ctx, 0);
  te_node *ext = l->extent;
  for (int t = 0; t < nd; t++)
    {
      int c;
      te_node *q;
      if (has_term (used, nused, ds[t])
          || !bound_on (ctx, ds[t], l->var, ins, nin, &c, &q))
        continue;
      bool everywhere = true;
      for (int i = 1; i < n && everywhere; i++)
        {
          te_node *other[MAX_TERMS];
          int no = guard_terms (ctx, xs[i]->guard, other);
          everywhere = has_term (other, no, ds[t]);
        }
      if (!everywhere)
        continue;
      used[nused++] = ds[t];
      if (c == 1)
        {
          /* V + Q < 0: V < -Q.  */
          te_node *e = te_canon_int (ctx, te_neg (ctx, q));
          if (surely_non_negative (ctx, te_sub (ctx, ext, e)))
            ext = e;
          else if (!surely_non_negative (ctx, te_sub (ctx, e, ext)))
            ext = te_binary (ctx, TE_MIN, ext, e);
        }
      else
        {
          /* -V + Q < 0: V >= Q + 1.  */
          te_node *b = te_canon_int (ctx, te_add (ctx, q, te_int (ctx, 1)));
          if (surely_non_negative (ctx, te_sub (ctx, b, start)))
            start = b;
          else if (!surely_non_negative (ctx, te_sub (ctx, start, b)))
            start = te_binary (ctx, TE_MAX, start, b);
        }
    }
  if (!nused)
    return false;
  l->extent = ext;
  l->start = te_is_const (start, 0) ? NULL : start;
  for (int i = 0; i < n; i++)
    xs[i]->guard = strip (ctx, xs[i]->guard, false, used, nused);
  te_program_note (p, "clip: the loop over %s runs where its statements' "
                      "guards hold, %d test(s) fewer",
                   te_program_var_name (p, l->var), nused);
  return true;
}

/* Clip the loops of statement X of its own, innermost first; X's loops
   get an array of their own (another statement may share the one it
   has).  */
static void
clip_own (te_program *p, te_stmt *x)
{
  if (!x->ninner || !x->guard)
    return;
  te_loop *inner = te_alloc (p->ctx, x->ninner * sizeof *inner);
  for (int k = 0; k < x->ninner; k++)
    inner[k] = x->inner[k];
  x->inner = inner;
  int ins[2 * TE_MAX_LOOPS];
  for (int k = x->ninner - 1; k >= 0; k--)
    {
      int nin = 0;
      for (int j = k + 1; j < x->ninner; j++)
        ins[nin++] = x->inner[j].var;
      clip_loop (p, &x->inner[k], &x, 1, ins, nin);
    }
}

/* Clip the loops of stage S, innermost first, but a parallel one.  */
static void
clip_stage (te_program *p, te_stage *s)
{
  if (s->reversed || !s->nstmts || s->nstmts > 64)
    return;
  te_stmt *xs[64];
  int ins[TE_MAX_LOOPS + 64 * 2 * TE_MAX_LOOPS], nown = 0;
  for (int i = 0; i < s->nstmts; i++)
    {
      xs[i] = &s->stmts[i];
      for (int k = 0; k < s->stmts[i].ninner; k++)
        ins[nown++] = s->stmts[i].inner[k].var;
    }
  for (int k = s->nloops - 1; k >= (s->par ? 1 : 0); k--)
    {
      int nin = nown;
      for (int j = k + 1; j < s->nloops; j++)
        ins[nin++] = s->loops[j].var;
      clip_loop (p, &s->loops[k], xs, s->nstmts, ins, nin);
    }
}

bool
te_program_clip (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      if (s->call || s->blas)
        continue;
      for (int i = 0; i < s->nstmts; i++)
        clip_own (p, &s->stmts[i]);
      clip_stage (p, s);
    }
  return true;
}
