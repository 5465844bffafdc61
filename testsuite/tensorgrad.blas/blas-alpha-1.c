/* { dg-do run } */
/* A product with a constant factor, with -fplugin-arg-tensorgrad-blas:
   y[i*m + j] = sum_p -0.5 x[i*k + p] w[p*m + j] (acc -= 0.5 * x * w).
   d_x += -0.5 d_y w^T and d_w += -0.5 x^T d_y: calls with alpha -0.5
   (the constant and the negation both go to alpha), beta 1.  Double,
   sizes 6 x 11 x 4; every component against central differences, with
   pre-filled shadows and with d_w NULL.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
neg_half (int n, int k, int m, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = 0;
	for (int p = 0; p < k; p++)
	  acc -= 0.5 * x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

int
main (void)
{
  int n = 6, k = 11, m = 4;
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  TG_GRADCHECK (neg_half, &n, &k, &m, x, w, y);
  TG_GRADCHECK_NULL (neg_half, "w", &n, &k, &m, x, w, y);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = -0.5 \\* \[a-z0-9_\]+ \\* w\\^T as cblas_dgemm \\(n, k, m\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w = -0.5 \\* x\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(k, m, n\\)\n" } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
