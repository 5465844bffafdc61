/* { dg-do run } */
/* Float by-value scalars, unary minus and a constant, 1-D:
   y[i] = -(a * x[i]) + b * 0.5f, a and b float by value, shadows float
   *d_a, *d_b.  *d_a += -sum d_y x; *d_b += 0.5 sum d_y; d_x += -a d_y.
   TG_GRADCHECK checks d_a, d_b and every d_x against central differences
   (in float precision: tg_gradcheck's float step and tolerances),
   accumulation into the shadows, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
affine_f (int n, float a, const float *x, float b, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = -(a * x[i]) + b * 0.5f;
}

int
main (void)
{
  int n = 7;
  float a = 1.25f, b = -0.625f;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -2, 2);
  TG_GRADCHECK (affine_f, &n, &a, x, &b, y);
  return tg_exit ();
}
