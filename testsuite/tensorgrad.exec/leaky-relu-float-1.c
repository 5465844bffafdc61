/* { dg-do run } */
/* Leaky relu in float, 1-D of run-time length:
   y[i] = x[i] > 0 ? x[i] : 0.01f * x[i].
   d_x[i] += d_y[i] * (x[i] > 0 ? 1 : 0.01).  With no |x| below 0.05 (the
   float finite-difference step stays on one side) TG_GRADCHECK checks every
   d_x against central differences (in float precision), accumulation into
   d_x, and that x, y, d_y are untouched; then the negative side tightly,
   and the slope 0.01f of the chosen arm at x = 0.0f.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky_relu (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0.01f * x[i];
}

int
main (void)
{
  int n = 9;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_away_f (x, n, 1, -2, 2, 0.0, 0.05);
  TG_GRADCHECK (leaky_relu, &n, x, y);

  /* The small slope must be seen: its contribution is not far above the
     float tolerance, so compare the negative side tightly.  */
  float *c = tg_alloc_f (n), *d_x = tg_alloc_f (n), *pre = tg_alloc_f (n);
  tg_fill_f (c, n, 2, -1, 1);
  tg_fill_f (pre, n, 3, -1, 1);
  memcpy (d_x, pre, n * sizeof *d_x);
  leaky_relu (n, x, y);
  leaky_relu_grad (n, x, y, d_x, c);
  for (int i = 0; i < n; i++)
    if (x[i] < 0)
      CHECK_NEAR_AT (d_x[i] - pre[i], 0.01f * c[i], 1e-3, 1e-7, i);
  x[4] = 0.0f;
  leaky_relu (n, x, y);
  memcpy (d_x, pre, n * sizeof *d_x);
  leaky_relu_grad (n, x, y, d_x, c);
  CHECK_NEAR (d_x[4] - pre[4], 0.01f * c[4], 1e-3, 1e-7);
  return tg_exit ();
}
