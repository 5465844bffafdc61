/* { dg-do run } */
/* Constant loop bounds, 2-D flat-indexed 4 x 5 and a 1-D nest of 5 in
   sequence: y[i*5+j] = log (x[i*5+j]) * w[j], then z[j] = w[j] * w[j] -
   sqrt (x[j]) (x in [0.5, 2]).  d_x[i*5+j] += d_y w[j] / x (+ for i = 0:
   -d_z[j] / (2 sqrt x[j])); d_w[j] += sum_i d_y log x + 2 w[j] d_z[j].
   TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, z, d_y, d_z are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
fixed_shape (const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      y[i * 5 + j] = log (x[i * 5 + j]) * w[j];
  for (int j = 0; j < 5; j++)
    z[j] = w[j] * w[j] - sqrt (x[j]);
}

int
main (void)
{
  double x[20], w[5], y[20] = { 0 }, z[5] = { 0 };
  tg_fill (x, 20, 1, 0.5, 2);
  tg_fill (w, 5, 2, -2, 2);
  TG_GRADCHECK (fixed_shape, x, w, y, z);
  return tg_exit ();
}
