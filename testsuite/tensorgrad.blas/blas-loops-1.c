/* { dg-do run } */
/* What -fplugin-arg-tensorgrad-blas leaves loops, and sizes the BLAS
   does not take, all with correct gradients.
   overlap (float): y[i*m + j] = sum_p x[i*s + p] w[p*m + j] with rows of
   x s apart, s < k at run time (rows overlap): a product with lda = s,
   which the BLAS refuses below k, so the gradient runs its loops there;
   at s >= k it calls the BLAS.  Sizes 0 and 1 call nothing or a 1 x 1
   product.
   scaled (double): y[i*m + j] = sum_p x[i*k + p] w[p*m + j] g[p], a
   third factor that moves (g[p]): no statement of its gradient is a
   product of two arrays, all stay loops, and it calls no cblas_dgemm.
   Every component against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
overlap (int n, int k, int m, int s, const float *x, const float *w,
	 float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0;
	for (int p = 0; p < k; p++)
	  acc += x[i * s + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

__attribute__ ((differentiable))
void
scaled (int n, int k, int m, const double *x, const double *w,
	const double *g, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = 0;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j] * g[p];
	y[i * m + j] = acc;
      }
}

static void
run_overlap (int n, int k, int m, int s)
{
  int nx = n ? (n - 1) * s + k : 1;
  float *x = tg_alloc_f (nx), *w = tg_alloc_f (k * m + 1);
  float *y = tg_alloc_f (n * m + 1);
  tg_fill_f (x, nx, n + 7 * k, -1, 1);
  tg_fill_f (w, k * m + 1, m + 3, -1, 1);
  TG_GRADCHECK (overlap, &n, &k, &m, &s, x, w, y);
}

int
main (void)
{
  run_overlap (5, 7, 3, 2);	/* lda 2 < k 7: loops */
  run_overlap (5, 7, 3, 9);	/* lda 9 >= 7: a call */
  run_overlap (1, 1, 1, 1);
  run_overlap (0, 4, 3, 4);
  run_overlap (4, 0, 3, 1);

  int n = 4, k = 7, m = 3;
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *g = tg_alloc (k);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  tg_fill (g, k, 3, -1, 1);
  TG_GRADCHECK (scaled, &n, &k, &m, x, w, g, y);
  TG_GRADCHECK_NULL (scaled, "x", &n, &k, &m, x, w, g, y);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = \[a-z0-9_\]+ \\* w\\^T as cblas_sgemm \\(n, k, m\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump-not "cblas_dgemm" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
