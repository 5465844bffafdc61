/* { dg-do run } */
/* fabsf, fmaxf and fminf in float, 1-D:
   y[i] = fabsf (x[i]) + fmaxf (x[i], w[i]) - 0.5f * fminf (x[i], w[i]).
   With no |x| below 0.05 and |x - w| at least 0.05 (the float step stays
   on one side of every kink) TG_GRADCHECK checks every d_x and d_w against
   central differences (in float precision), accumulation into the shadows,
   and that x, w, y, d_y are untouched; then, exactly, at x = 0 (fabsf
   contributes 0) and at a tie x == w (fmaxf and fminf both send the adjoint
   to their first operand, x).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
kinks (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = fabsf (x[i]) + fmaxf (x[i], w[i]) - 0.5f * fminf (x[i], w[i]);
}

int
main (void)
{
  int n = 9;
  float *x = tg_alloc_f (n), *w = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_away_f (x, n, 1, -2, 2, 0.0, 0.05);
  tg_fill_f (w, n, 2, -2, 2);
  for (int i = 0; i < n; i++)
    if (fabsf (x[i] - w[i]) < 0.05f)
      w[i] += 0.25f;
  TG_GRADCHECK (kinks, &n, x, w, y);

  /* x[2] = 0 with w[2] = 1: fabsf gives 0, fminf picks x (-0.5 d_y).
     x[5] == w[5] = 0.75: fabsf gives d_y, fmaxf d_y, fminf -0.5 d_y, all
     to x.  */
  float *c = tg_alloc_f (n), *d_x = tg_alloc_f (n), *d_w = tg_alloc_f (n);
  float *pre_x = tg_alloc_f (n), *pre_w = tg_alloc_f (n);
  tg_fill_f (c, n, 3, -1, 1);
  tg_fill_f (pre_x, n, 4, -1, 1);
  tg_fill_f (pre_w, n, 5, -1, 1);
  memcpy (d_x, pre_x, n * sizeof *d_x);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  x[2] = 0.0f;
  w[2] = 1.0f;
  x[5] = w[5] = 0.75f;
  kinks (n, x, w, y);
  kinks_grad (n, x, w, y, d_x, d_w, c);
  CHECK_NEAR (d_x[2] - pre_x[2], -0.5f * c[2], 1e-6, 1e-7);
  CHECK_NEAR (d_w[2] - pre_w[2], c[2], 1e-6, 1e-7);
  CHECK_NEAR (d_x[5] - pre_x[5], 1.5f * c[5], 1e-6, 1e-7);
  CHECK (d_w[5] == pre_w[5]);
  return tg_exit ();
}
