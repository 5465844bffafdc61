/* { dg-do run } */
/* A sum reduction accumulated directly in an output element, which the
   kernel zeroes first, n x K at run time (5 x 4):
   y[i] = 0; for (k < K) y[i] += x[i*K+k];
   y is an output (it reads only what it wrote), so d_y holds the
   incoming adjoint and stays unchanged; d_x[i*K+k] += d_y[i].  TG_GRADCHECK
   checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rowsum_out (int n, int K, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = 0;
      for (int k = 0; k < K; k++)
	y[i] += x[i * K + k];
    }
}

int
main (void)
{
  int n = 5, K = 4;
  double *x = tg_alloc (n * K), *y = tg_alloc (n);
  tg_fill (x, n * K, 1, -2, 2);
  TG_GRADCHECK (rowsum_out, &n, &K, x, y);
  return tg_exit ();
}
