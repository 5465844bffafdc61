/* { dg-do run } */
/* A float column mean (reduction over axis 0) of an n x m matrix, 5 x 3
   at run time, float accumulator:
   for (j < m) { float s = 0.0f; for (i < n) s += x[i*m+j];
   y[j] = s / n; }.  d_x[i*m+j] += d_y[j] / n.  TG_GRADCHECK checks every
   d_x against central differences (in float precision), accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
colmean_f (int n, int m, const float *x, float *y)
{
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
	s += x[i * m + j];
      y[j] = s / n;
    }
}

int
main (void)
{
  int n = 5, m = 3;
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (m);
  tg_fill_f (x, n * m, 1, -2, 2);
  TG_GRADCHECK (colmean_f, &n, &m, x, y);
  return tg_exit ();
}
