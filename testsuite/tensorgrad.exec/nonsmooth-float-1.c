/* { dg-do run } */
/* fabsf, fmaxf and fminf in float, 1-D:
   y[i] = fabsf (x[i]) + fmaxf (x[i], w[i]) - 0.5f * fminf (x[i], w[i]).
   With no |x| below 0.05 and |x - w| at least 0.05 (the float step stays
   on one side of every kink) checks every d_x and d_w against central
   differences (float tolerances), accumulation into pre-filled shadows,
   and that x, w, y, d_y are untouched; then, exactly, at x = 0 (fabsf
   contributes 0) and at a tie x == w (fmaxf and fminf both send the
   adjoint to their first operand, x).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
kinks (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = fabsf (x[i]) + fmaxf (x[i], w[i]) - 0.5f * fminf (x[i], w[i]);
}

struct ctx
{
  int n;
  float *x, *w, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  kinks (k->n, k->x, k->w, k->y);
  return tg_dot_f (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  float *x = tg_alloc_f (n), *w = tg_alloc_f (n), *y = tg_alloc_f (n);
  float *c = tg_alloc_f (n), *d_x = tg_alloc_f (n), *d_w = tg_alloc_f (n);
  tg_fill_away_f (x, n, 1, -2, 2, 0.0, 0.05);
  tg_fill_f (w, n, 2, -2, 2);
  for (int i = 0; i < n; i++)
    if (fabsf (x[i] - w[i]) < 0.05f)
      w[i] += 0.25f;
  tg_fill_f (c, n, 3, -1, 1);
  tg_fill_f (d_x, n, 4, -1, 1);
  tg_fill_f (d_w, n, 5, -1, 1);

  kinks (n, x, w, y);
  float *x0 = tg_dup_f (x, n), *w0 = tg_dup_f (w, n), *y0 = tg_dup_f (y, n);
  float *d_y = tg_dup_f (c, n);
  float *pre_x = tg_dup_f (d_x, n), *pre_w = tg_dup_f (d_w, n);

  kinks_grad (n, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  float *g_x = tg_alloc_f (n), *g_w = tg_alloc_f (n);
  tg_sub_f (g_x, d_x, pre_x, n);
  tg_sub_f (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, w, y, c };
  tg_fd_check_f ("x", x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("w", w, n, loss, &k, g_w, TG_RTOL_F, TG_ATOL_F);

  /* x[2] = 0 with w[2] = 1: fabsf gives 0, fminf picks x (-0.5 d_y).
     x[5] == w[5] = 0.75: fabsf gives d_y, fmaxf d_y, fminf -0.5 d_y, all
     to x.  */
  x[2] = 0.0f;
  w[2] = 1.0f;
  x[5] = w[5] = 0.75f;
  kinks (n, x, w, y);
  memcpy (d_x, pre_x, n * sizeof *d_x);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  kinks_grad (n, x, w, y, d_x, d_w, d_y);
  CHECK_NEAR (d_x[2] - pre_x[2], -0.5f * c[2], 1e-6, 1e-7);
  CHECK_NEAR (d_w[2] - pre_w[2], c[2], 1e-6, 1e-7);
  CHECK_NEAR (d_x[5] - pre_x[5], 1.5f * c[5], 1e-6, 1e-7);
  CHECK (d_w[5] == pre_w[5]);
  return tg_exit ();
}
