/* winograd.c -- a kernel's 3x3 convolution as a call of libtensorgrad's
   tg_conv3x3_f32 (f64), whose gradient is tg_conv3x3_f32_grad: Winograd's
   F(2x2, 3x3) on the CBLAS (lib/runtime/conv3x3.c), with
   -fplugin-arg-tensorgrad-winograd (te_program.winograd).

   Before (the program as lifted):
       stage 0: for n < nb, o < f, oh < h, ow < w:
         y[((n*f + o)*h + oh)*w + ow] = sum (ci < c, kh < 3, kw < 3; b[o];
           oh + kh - 1 >= 0 && oh + kh - 1 < h && ow + kw - 1 >= 0
           && ow + kw - 1 < w
           ? x[((n*c + ci)*h + oh + kh - 1)*w + ow + kw - 1]
             * wt[((o*c + ci)*3 + kh)*3 + kw] : 0)
   After:
       stage 0: call tg_conv3x3_f32 (nb, c, h, w, f, x, wt, b, y,
                                     cblas_sgemm)
   and the reverse sweep (lib/ad/ad.c) makes it a call of the gradient
   with the shadows, d_x, d_wt and d_b accumulating, any NULL skipped.

   1. A stage of one statement (y[...] = its value, no guard) in four
      loops n, o, oh, ow from 0, in that order (or three, o, oh, ow: one
      image), whose value is a sum over ci, kh < 3, kw < 3, in that
      order, started at b[o] (or 0: tg_conv3x3_nobias_f32, without b), of
      the product of two loads x and wt under selects whose other arm
      is 0.
   2. The selects' tests, each comparison written as E >= 0 with E
      canonical (a >= b: a - b; a < b: b - a - 1; ...), are exactly the
      four of the padding: oh + kh - 1 >= 0, h - 1 - (oh + kh - 1) >= 0
      and the same of ow, kw and w, with h and w the extents of oh and
      ow.
   3. Each index is NCHW's with the loops' extents, up to an offset of
      no counter (a pointer into a larger array): y's ((n*f + o)*h +
      oh)*w + ow, x's ((n*c + ci)*h + oh + kh - 1)*w + ow + kw - 1 (either
      factor), wt's ((o*c + ci)*3 + kh)*3 + kw, b's o; all four of one
      floating type, y none of the others.
   The call's sizes are the extents (integers of the parameters), its
   pointers the tensors from their offsets.

   Limits: stride 1, padding 1, output as large as the input; none with
   an activation around the sum (y = tanh (sum)), none in another loop
   order or layout (NHWC): those stay loops (or im2col products with
   blas).  The
   interpreter runs no call, so -fplugin-arg-tensorgrad-check does not
   check such a gradient.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

static te_node *
add (te_ctx *ctx, te_node *a, te_node *b)
{
  return te_binary (ctx, TE_ADD, a, b);
}

static te_node *
mul (te_ctx *ctx, te_node *a, te_node *b)
{
  return te_binary (ctx, TE_MUL, a, b);
}

/* (A * B + C), canonical.  */
static te_node *
lin (te_ctx *ctx, te_node *a, te_node *b, te_node *c)
{
  return add (ctx, mul (ctx, a, b), c);
}

/* The offset of INDEX from EXPECT when it moves with none of the N
   counters VARS (a canonical integer), else NULL.  */
static te_node *
offset_of (te_ctx *ctx, te_node *index, te_node *expect, const int *vars,
           int n)
{
  te_node *d = te_canon_int (
      ctx, te_binary (ctx, TE_SUB, te_canon_int (ctx, index),
                      te_canon_int (ctx, expect)));
  for (int i = 0; i < n; i++)
    if (te_uses_var (d, vars[i]))
      return NULL;
  return d;
}

/* Step 2: the comparisons of test T, each as a canonical E meaning
   E >= 0, into ATOMS (at most MAX); false if T is not a conjunction of
   integer comparisons.  */
static bool
atoms_of (te_ctx *ctx, te_node *t, te_node **atoms, int *n, int max)
{
  switch (t->op)
    {
    case TE_AND:
      return atoms_of (ctx, t->args[0], atoms, n, max)
             && atoms_of (ctx, t->args[1], atoms, n, max);
    case TE_NE:
      /* false != (a && b), as the lifter reads C's truth values.  */
      if (t->args[0]->op == TE_CONST && t->args[0]->type == TE_BOOL
          && !t->args[0]->u.i)
        return atoms_of (ctx, t->args[1], atoms, n, max);
      if (t->args[1]->op == TE_CONST && t->args[1]->type == TE_BOOL
          && !t->args[1]->u.i)
        return atoms_of (ctx, t->args[0], atoms, n, max);
      return false;
    case TE_GE:
    case TE_GT:
    case TE_LE:
    case TE_LT:
      {
        te_node *a = t->args[0], *b = t->args[1];
        if (te_type_is_float (a->type) || te_type_is_float (b->type)
            || *n == max)
          return false;
        te_node *one = te_int (ctx, 1);
        te_node *e = t->op == TE_GE   ? te_binary (ctx, TE_SUB, a, b)
                     : t->op == TE_GT ? te_binary (
                           ctx, TE_SUB, te_binary (ctx, TE_SUB, a, b), one)
                     : t->op == TE_LE ? te_binary (ctx, TE_SUB, b, a)
                                      : te_binary (ctx, TE_SUB,
                                                   te_binary (ctx, TE_SUB, b,
                                                              a),
                                                   one);
        atoms[(*n)++] = te_canon_int (ctx, e);
        return true;
      }
    default:
      return false;
    }
}

/* Step 2: is the conjunction of the N tests TESTS exactly the padding's
   for input row A (extent H) and column B (extent W)?  */
static bool
padding_tests (te_ctx *ctx, te_node **tests, int n, te_node *a, te_node *h,
               te_node *b, te_node *w)
{
  te_node *atoms[16];
  int na = 0;
  for (int i = 0; i < n; i++)
    if (!atoms_of (ctx, tests[i], atoms, &na, 16))
      return false;
  te_node *one = te_int (ctx, 1);
  te_node *want[4] = {
    te_canon_int (ctx, a),
    te_canon_int (ctx, te_binary (ctx, TE_SUB,
                                  te_binary (ctx, TE_SUB, h, one), a)),
    te_canon_int (ctx, b),
    te_canon_int (ctx, te_binary (ctx, TE_SUB,
                                  te_binary (ctx, TE_SUB, w, one), b)),
  };
  bool seen[4] = { false, false, false, false };
  for (int i = 0; i < na; i++)
    {
      int k = 0;
      while (k < 4 && atoms[i] != want[k])
        k++;
      if (k == 4)
        return false;
      seen[k] = true;
    }
  return seen[0] && seen[1] && seen[2] && seen[3];
}

/* A pointer argument: tensor T from element OFF, of which the callee
   touches EXTENT (its elements in NCHW).  */
static void
ptr_arg (te_call_arg *a, te_tensor *t, te_node *off, bool writes,
         te_node *extent)
{
  a->kind = TE_PK_PTR_FLOAT;
  a->tensor = t;
  a->offset = off;
  a->writes = writes;
  a->extent = extent;
}

te_call *
te_conv3x3_call (te_program *p, const te_stage *s, const char **why)
{
  te_ctx *ctx = p->ctx;
  if (s->call || s->nstmts != 1 || s->nloops < 3 || s->nloops > 4
      || s->reversed)
    return *why = "not one statement in three or four loops", NULL;
  const te_stmt *st = &s->stmts[0];
  te_node *v = st->value;
  if (st->op != TE_SET || st->guard || st->ninner)
    return *why = "not one statement in three or four loops", NULL;
  for (int l = 0; l < s->nloops; l++)
    if (s->loops[l].start)
      return *why = "not one statement in three or four loops", NULL;
  if (v->op != TE_REDUCE || v->u.red.kind != TE_RED_SUM
      || v->u.red.nloops != 3)
    return *why = "not a sum over three loops", NULL;
  const te_loop *red = v->u.red.loops;
  if (!te_is_const (red[1].extent, 3) || !te_is_const (red[2].extent, 3))
    return *why = "not a 3x3 filter", NULL;
  te_type type = st->dst->type;
  if (type != TE_F32 && type != TE_F64)
    return *why = "not a floating convolution", NULL;
  /* Step 1: the start and the product under its selects.  */
  te_node *init = v->args[0], *body = v->args[1];
  te_node *tests[8];
  int ntests = 0;
  while (body->op == TE_SELECT && te_is_const (body->args[2], 0.0)
         && ntests < 8)
    {
      tests[ntests++] = body->args[0];
      body = body->args[1];
    }
  te_node *f[4];
  if (te_factors (body, f, 4) != 2 || f[0]->op != TE_LOAD
      || f[1]->op != TE_LOAD)
    return *why = "not a product of two arrays", NULL;
  bool bias = init->op == TE_LOAD;
  if (!bias && !te_is_const (init, 0.0))
    return *why = "a start that is no bias per filter", NULL;
  /* The loops: (n,) o, oh, ow; without n, one image.  */
  int first = s->nloops - 3;
  int n = first ? s->loops[0].var : -1, o = s->loops[first].var;
  int oh = s->loops[first + 1].var, ow = s->loops[first + 2].var;
  int ci = red[0].var, kh = red[1].var, kw = red[2].var;
  int vars[7] = { o, oh, ow, ci, kh, kw, n };
  int nvars = first ? 7 : 6;
  te_node *NB = first ? s->loops[0].extent : te_int (ctx, 1);
  te_node *F = s->loops[first].extent, *H = s->loops[first + 1].extent;
  te_node *W = s->loops[first + 2].extent, *C = red[0].extent;
  for (int i = 0; i < nvars; i++)
    if (te_uses_var (NB, vars[i]) || te_uses_var (F, vars[i])
        || te_uses_var (H, vars[i]) || te_uses_var (W, vars[i])
        || te_uses_var (C, vars[i]))
      return *why = "an extent that moves with a loop", NULL;
  te_node *three = te_int (ctx, 3), *m1 = te_int (ctx, -1);
  te_node *ih = add (ctx, add (ctx, te_var (ctx, oh), te_var (ctx, kh)), m1);
  te_node *iw = add (ctx, add (ctx, te_var (ctx, ow), te_var (ctx, kw)), m1);
  /* Step 2.  */
  if (!padding_tests (ctx, tests, ntests, ih, H, iw, W))
    return *why = "not the tests of a padding of 1", NULL;
  /* Step 3.  */
  te_node *nv = first ? te_var (ctx, n) : te_int (ctx, 0);
  te_node *yi = lin (ctx, lin (ctx, lin (ctx, nv, F, te_var (ctx, o)), H,
                               te_var (ctx, oh)),
                     W, te_var (ctx, ow));
  te_node *xi = lin (ctx, lin (ctx, lin (ctx, nv, C, te_var (ctx, ci)), H,
                               ih),
                     W, iw);
  te_node *wi = lin (ctx, lin (ctx, lin (ctx, te_var (ctx, o), C,
                                         te_var (ctx, ci)),
                               three, te_var (ctx, kh)),
                     three, te_var (ctx, kw));
  te_node *yoff = offset_of (ctx, st->index, yi, vars, nvars);
  te_node *boff = bias ? offset_of (ctx, init->args[0], te_var (ctx, o),
                                    vars, nvars)
                       : te_int (ctx, 0);
  te_node *xl = NULL, *wl = NULL, *xoff = NULL, *woff = NULL;
  for (int k = 0; k < 2 && !xl; k++)
    {
      xoff = offset_of (ctx, f[k]->args[0], xi, vars, nvars);
      woff = offset_of (ctx, f[1 - k]->args[0], wi, vars, nvars);
      if (xoff && woff)
        xl = f[k], wl = f[1 - k];
    }
  if (!yoff || !boff || !xl)
    return *why = "not NCHW indices of the loops' extents", NULL;
  te_tensor *y = st->dst, *x = xl->u.tensor, *wt = wl->u.tensor;
  te_tensor *b = bias ? init->u.tensor : NULL;
  te_tensor *arrays[4] = { x, wt, y, b };
  for (int i = 0; i < 4 && arrays[i]; i++)
    if (arrays[i]->type != type)
      return *why = "arrays of different types", NULL;
    else if (arrays[i]->kind == TE_TK_STATIC
             || arrays[i]->kind == TE_TK_SCALAR || arrays[i]->optional)
      return *why = "an array the call cannot be given", NULL;
  if (y == x || y == wt || y == b || te_reads (v, y))
    return *why = "reads its destination", NULL;
  if (x == wt || x == b || wt == b)
    return *why = "one array in two roles", NULL;
  /* The call: tg_conv3x3_f32 (nb, c, h, w, f, x, wt, b, y, gemm), or
     without a bias tg_conv3x3_nobias_f32 (nb, c, h, w, f, x, wt, y,
     gemm).  */
  bool dbl = type == TE_F64;
  te_call *c = te_alloc (ctx, sizeof *c);
  c->name = bias ? dbl ? "tg_conv3x3_f64" : "tg_conv3x3_f32"
                 : dbl ? "tg_conv3x3_nobias_f64" : "tg_conv3x3_nobias_f32";
  c->grad_name = bias ? dbl ? "tg_conv3x3_f64_grad" : "tg_conv3x3_f32_grad"
                      : dbl ? "tg_conv3x3_nobias_f64_grad"
                            : "tg_conv3x3_nobias_f32_grad";
  c->nargs = bias ? 9 : 8;
  c->args = te_alloc (ctx, (c->nargs + 1) * sizeof *c->args);
  c->ctypes = te_alloc (ctx, (c->nargs + 1) * sizeof *c->ctypes);
  te_node *sizes[5] = { NB, C, H, W, F };
  for (int i = 0; i < 5; i++)
    {
      c->args[i].kind = TE_PK_INT;
      c->args[i].value = sizes[i];
      c->ctypes[i] = "long";
    }
  int a = 5;
  ptr_arg (&c->args[a++], x, xoff, false, mul (ctx, mul (ctx, NB, C),
                                               mul (ctx, H, W)));
  ptr_arg (&c->args[a++], wt, woff, false,
           mul (ctx, mul (ctx, F, C), te_int (ctx, 9)));
  if (bias)
    ptr_arg (&c->args[a++], b, boff, false, F);
  ptr_arg (&c->args[a], y, yoff, true,
           mul (ctx, mul (ctx, NB, F), mul (ctx, H, W)));
  for (int i = 5; i < a; i++)
    c->ctypes[i] = dbl ? "const double *" : "const float *";
  c->ctypes[a] = dbl ? "double *" : "float *";
  c->gemm = p->winograd != TE_GEMM_NONE ? p->winograd : TE_GEMM_CBLAS;
  return c;
}

bool
te_program_winograd (te_program *p, te_diag *diag)
{
  (void) diag;
  if (p->winograd == TE_GEMM_NONE)
    return true;
  for (int si = 0; si < p->nstages; si++)
    {
      te_stage *s = &p->stages[si];
      const char *why = NULL;
      te_call *c = te_conv3x3_call (p, s, &why);
      if (!c)
        {
          if (s->nloops >= 3 && s->nloops <= 4 && s->nstmts == 1
              && s->stmts[0].value->op == TE_REDUCE
              && s->stmts[0].value->u.red.nloops == 3)
            te_program_note (p, "winograd: the sum writing %s stays: %s",
                             s->stmts[0].dst->name, why);
          continue;
        }
      te_program_note (p, "winograd: the convolution writing %s is a call "
                          "of %s",
                       s->stmts[0].dst->name, c->name);
      s->nloops = 0;
      s->nstmts = 0;
      s->stmts = NULL;
      s->call = c;
      s->nest = -1 - si; /* as the lifter numbers a call's stage */
    }
  return true;
}
