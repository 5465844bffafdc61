/* { dg-do run } */
/* A float kernel that takes its maximum with the double fmax (the
   argument promoted, the result rounded back to float): the rounding
   keeps order, so it is the float maximum of the terms.  A log-sum-exp
   over a vector, and a row-wise maximum with fmin beside it.
   d_x[i] = softmax (x)[i] d_y; the maximum's own adjoint cancels.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
lse (int n, const float *x, float *y)
{
  float m = -1e30f;
  for (int i = 0; i < n; i++)
    m = fmax (m, x[i]);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += expf (x[i] - m);
  *y = m + logf (s);
}

__attribute__ ((differentiable))
void
spread (int r, int c, const float *x, float *y)
{
  for (int i = 0; i < r; i++)
    {
      float hi = x[i * c], lo = x[i * c];
      for (int j = 1; j < c; j++)
        {
          hi = fmax (hi, x[i * c + j]);
          lo = fmin (lo, x[i * c + j] * 0.5);
        }
      y[i] = hi - lo;
    }
}

int
main (void)
{
  int n = 7;
  float *x = tg_alloc_f (n), y[1];
  tg_fill_f (x, n, 1, -2, 2);
  TG_GRADCHECK (lse, &n, x, y);

  int r = 3, c = 5;
  float *xs = tg_alloc_f (r * c), *ys = tg_alloc_f (r);
  tg_fill_f (xs, r * c, 2, -2, 2);
  TG_GRADCHECK (spread, &r, &c, xs, ys);
  return tg_exit ();
}
