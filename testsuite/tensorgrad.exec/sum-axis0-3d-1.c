/* { dg-do run } */
/* A sum down axis 0 of an n x m x p tensor, flat-indexed, 5 x 3 x 4 at
   run time, the reduced axis innermost:
   for (j < m) for (k < p) { double s = 0;
   for (i < n) s += x[(i*m+j)*p+k]; y[j*p+k] = s; }.
   d_x[(i*m+j)*p+k] += d_y[j*p+k].  TG_GRADCHECK checks every d_x against
   central differences, accumulation into a pre-filled d_x, and that x, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sum3_axis0 (int n, int m, int p, const double *x, double *y)
{
  for (int j = 0; j < m; j++)
    for (int k = 0; k < p; k++)
      {
	double s = 0;
	for (int i = 0; i < n; i++)
	  s += x[(i * m + j) * p + k];
	y[j * p + k] = s;
      }
}

int
main (void)
{
  int n = 5, m = 3, p = 4;
  double *x = tg_alloc (n * m * p), *y = tg_alloc (m * p);
  tg_fill (x, n * m * p, 1, -2, 2);
  TG_GRADCHECK (sum3_axis0, &n, &m, &p, x, y);
  return tg_exit ();
}
