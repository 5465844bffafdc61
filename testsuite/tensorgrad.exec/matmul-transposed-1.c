/* { dg-do run } */
/* A product with a transposed operand, y = x w^T: x n x k, w m x k, y
   n x m (5 x 4, 3 x 4, 5 x 3 at run time), both operands read along k:
   for (i < n) for (j < m) { double acc = 0;
   for (p < k) acc += x[i*k+p] * w[j*k+p]; y[i*m+j] = acc; }.
   d_x[i*k+p] += sum_j d_y[i*m+j] w[j*k+p];
   d_w[j*k+p] += sum_i d_y[i*m+j] x[i*k+p].  TG_GRADCHECK checks every d_x
   and d_w against central differences, accumulation into pre-filled
   shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
matmul_wt (int n, int m, int k, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = 0;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[j * k + p];
	y[i * m + j] = acc;
      }
}

int
main (void)
{
  int n = 5, m = 3, k = 4;
  double *x = tg_alloc (n * k), *w = tg_alloc (m * k), *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -2, 2);
  tg_fill (w, m * k, 2, -2, 2);
  TG_GRADCHECK (matmul_wt, &n, &m, &k, x, w, y);
  return tg_exit ();
}
