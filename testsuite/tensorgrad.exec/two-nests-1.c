/* { dg-do run } */
/* Two loop nests in sequence writing different outputs and both reading
   the input x: a 1-D nest y[i] = 2 tanh (x[i]) and a 2-D flat-indexed
   nest z[i*m+j] = x[i] * w[i*m+j] (x broadcast along j), n x m at run
   time.  d_x[i] += 2 d_y (1 - tanh^2 x) + sum_j d_z w; d_w += d_z x[i].
   TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, z, d_y, d_z are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
two_nests (int n, int m, const double *x, const double *w, double *y,
	   double *z)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * tanh (x[i]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      z[i * m + j] = x[i] * w[i * m + j];
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n), *w = tg_alloc (n * m), *y = tg_alloc (n);
  double *z = tg_alloc (n * m);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n * m, 2, -2, 2);
  TG_GRADCHECK (two_nests, &n, &m, x, w, y, z);
  return tg_exit ();
}
