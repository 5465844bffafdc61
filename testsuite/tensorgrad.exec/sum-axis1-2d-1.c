/* { dg-do run } */
/* A sum of squares along axis 1 (over the columns) of an n x m matrix,
   5 x 3 at run time:
   for (i < n) { double s = 0; for (j < m) s += x[i*m+j] * x[i*m+j];
   y[i] = s; }.  d_x[i*m+j] += 2 d_y[i] x[i*m+j].  TG_GRADCHECK checks every
   d_x against central differences, accumulation into a pre-filled d_x, and
   that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sumsq_axis1 (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += x[i * m + j] * x[i * m + j];
      y[i] = s;
    }
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *y = tg_alloc (n);
  tg_fill (x, n * m, 1, -2, 2);
  TG_GRADCHECK (sumsq_axis1, &n, &m, x, y);
  return tg_exit ();
}
