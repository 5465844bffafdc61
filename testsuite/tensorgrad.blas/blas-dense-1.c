/* { dg-do run } */
/* A dense layer y = x W + b with -fplugin-arg-tensorgrad-blas, in float
   and in double: y[i*m + j] = b[j] + sum_p x[i*k + p] w[p*m + j], x n by
   k, w k by m.  d_x[i*k + p] += sum_j d_y[i*m + j] w[p*m + j] is
   d_x += d_y w^T, d_w[p*m + j] += sum_i x[i*k + p] d_y[i*m + j] is
   d_w += x^T d_y, both cblas_sgemm (cblas_dgemm) calls with beta 1 (the
   shadows are added to); d_b[j] += sum_i d_y[i*m + j] stays a loop.
   dense_rows reads its rows through row pointers (x + i*k, y + i*m), as
   users write it.  Odd sizes (7 x 33 x 5, no block of 8 fits the rest),
   checked against central differences, with pre-filled shadows, and with
   the shadows of x and then w NULL (that call is skipped).  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_f (int n, int k, int m, const float *x, const float *w, const float *b,
	 float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

__attribute__ ((differentiable))
void
dense_rows (int n, int k, int m, const double *x, const double *w,
	    const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *xr = x + i * k;
      double *yr = y + i * m;
      for (int j = 0; j < m; j++)
	{
	  double acc = b[j];
	  for (int p = 0; p < k; p++)
	    acc += xr[p] * w[p * m + j];
	  yr[j] = acc;
	}
    }
}

int
main (void)
{
  int n = 7, k = 33, m = 5;
  float *xf = tg_alloc_f (n * k), *wf = tg_alloc_f (k * m);
  float *bf = tg_alloc_f (m), *yf = tg_alloc_f (n * m);
  tg_fill_f (xf, n * k, 1, -1, 1);
  tg_fill_f (wf, k * m, 2, -1, 1);
  tg_fill_f (bf, m, 3, -1, 1);
  TG_GRADCHECK (dense_f, &n, &k, &m, xf, wf, bf, yf);
  TG_GRADCHECK_NULL (dense_f, "x", &n, &k, &m, xf, wf, bf, yf);
  TG_GRADCHECK_NULL (dense_f, "w", &n, &k, &m, xf, wf, bf, yf);

  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * k, 4, -1, 1);
  tg_fill (w, k * m, 5, -1, 1);
  tg_fill (b, m, 6, -1, 1);
  TG_GRADCHECK (dense_rows, &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense_rows, "x w", &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense_rows, "y", &n, &k, &m, x, w, b, y);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump-times "\n  blas: d_x = \[a-z0-9_\]+ \\* w\\^T as cblas_sgemm \\(n, k, m\\)\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  blas: d_w = x\\^T \\* \[a-z0-9_\]+ as cblas_sgemm \\(k, m, n\\)\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  blas: d_x = \[a-z0-9_\]+ \\* w\\^T as cblas_dgemm \\(n, k, m\\)\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  blas: d_w = x\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(k, m, n\\)\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: blas: d_w = x\\^T" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
