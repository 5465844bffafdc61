/* { dg-do run } */
/* One loop writing three outputs from two inputs, 1-D:
   y[i] = x[i] * w[i], z[i] = x[i] / w[i], u[i] = x[i] - w[i], w in
   [0.5, 2].  d_x += d_y w + d_z / w + d_u; d_w += d_y x - d_z x / w^2 -
   d_u.  TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that the inputs, the outputs
   and the output shadows are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mul_div_sub (int n, const double *x, const double *w, double *y, double *z,
	     double *u)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] * w[i];
      z[i] = x[i] / w[i];
      u[i] = x[i] - w[i];
    }
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *z = tg_alloc (n), *u = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, 0.5, 2);
  TG_GRADCHECK (mul_div_sub, &n, x, w, y, z, u);
  return tg_exit ();
}
