/* { dg-do run } */
/* A sum along axis 2 (the contiguous one) of an n x m x p tensor,
   flat-indexed, 5 x 3 x 4 at run time:
   for (i < n) for (j < m) { double s = 0;
   for (k < p) s += x[(i*m+j)*p+k]; y[i*m+j] = s; }.
   d_x[(i*m+j)*p+k] += d_y[i*m+j].  TG_GRADCHECK checks every d_x against
   central differences, accumulation into a pre-filled d_x, and that x, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sum3_axis2 (int n, int m, int p, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = 0;
	for (int k = 0; k < p; k++)
	  s += x[(i * m + j) * p + k];
	y[i * m + j] = s;
      }
}

int
main (void)
{
  int n = 5, m = 3, p = 4;
  double *x = tg_alloc (n * m * p), *y = tg_alloc (n * m);
  tg_fill (x, n * m * p, 1, -2, 2);
  TG_GRADCHECK (sum3_axis2, &n, &m, &p, x, y);
  return tg_exit ();
}
