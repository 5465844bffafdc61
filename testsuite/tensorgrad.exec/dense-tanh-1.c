/* { dg-do run } */
/* A dense layer with bias and tanh in one kernel, in double:
   x n x k, w k x m, b m, y n x m (5 x 4, 4 x 3 at run time);
   double acc = b[j]; for (p < k) acc += x[i*k+p] * w[p*m+j];
   y[i*m+j] = tanh (acc).  With dz = d_y (1 - y^2):
   d_x[i*k+p] += sum_j dz[i*m+j] w[p*m+j];
   d_w[p*m+j] += sum_i x[i*k+p] dz[i*m+j]; d_b[j] += sum_i dz[i*m+j].
   TG_GRADCHECK checks every d_x, d_w and d_b against central differences,
   accumulation into pre-filled shadows, and that x, w, b, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_tanh_d (int n, int m, int k, const double *x, const double *w,
	      const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = b[j];
      for (int p = 0; p < k; p++)
        acc += x[i*k + p] * w[p*m + j];
      y[i*m + j] = tanh (acc);
    }
}

int
main (void)
{
  int n = 5, m = 3, k = 4;
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  TG_GRADCHECK (dense_tanh_d, &n, &m, &k, x, w, b, y);
  return tg_exit ();
}
