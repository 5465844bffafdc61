/* { dg-do run } */
/* A transposing elementwise map, flat-indexed, x is n x m, y is m x n at
   run time: y[j*n+i] = x[i*m+j] * exp (-x[i*m+j]).  The read map is a
   permutation, so d_x[i*m+j] += d_y[j*n+i] (1 - x) exp (-x).  TG_GRADCHECK
   checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
transpose_xexp (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[j * n + i] = x[i * m + j] * exp (-x[i * m + j]);
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -1, 3);
  TG_GRADCHECK (transpose_xexp, &n, &m, x, y);
  return tg_exit ();
}
