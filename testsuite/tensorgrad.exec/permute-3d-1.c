/* { dg-do run } */
/* A 3-D axis permutation (2, 0, 1), flat-indexed, x n x m x p = 5 x 3 x 4
   at run time, y p x n x m: y[(k*n+i)*m+j] = x[(i*m+j)*p+k].  The read
   map is a permutation, so d_x[(i*m+j)*p+k] += d_y[(k*n+i)*m+j].
   TG_GRADCHECK checks every d_x against central differences, accumulation
   into a pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
permute3 (int n, int m, int p, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
	y[(k * n + i) * m + j] = x[(i * m + j) * p + k];
}

int
main (void)
{
  int n = 5, m = 3, p = 4;
  double *x = tg_alloc (n * m * p), *y = tg_alloc (n * m * p);
  tg_fill (x, n * m * p, 1, -2, 2);
  TG_GRADCHECK (permute3, &n, &m, &p, x, y);
  return tg_exit ();
}
