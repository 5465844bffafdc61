/* { dg-do run } */
/* if/else on loop counters (i == j) in a 2-D flat-indexed nest, n x n at
   run time: the diagonal is 3 x, the rest x * x.
   d_x += d_y * (i == j ? 3 : 2 x).  TG_GRADCHECK checks every d_x against
   central differences, accumulation into a pre-filled d_x, and that x, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
diag_scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
	if (i == j)
	  y[i * n + j] = 3.0 * x[i * n + j];
	else
	  y[i * n + j] = x[i * n + j] * x[i * n + j];
      }
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n * n), *y = tg_alloc (n * n);
  tg_fill (x, n * n, 1, -2, 2);
  TG_GRADCHECK (diag_scale, &n, x, y);
  return tg_exit ();
}
