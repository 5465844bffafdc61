/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Sums of the same terms times factors of their element's own counters,
   into different adjoints, are summed once (lib/passes/share.c).  Batch
   norm over rows LD elements apart (double, gain and shift NULL-able):
   d_gamma and the variance's adjoint both sum d_y * (x - mean) over the
   batch, d_beta and the mean's adjoint both sum d_y.  Two per-row scales
   (float, odd sizes): d_a[i] and d_b[i] both sum x * d_y over the row,
   times b[i] and a[i].  A row's gain and bias, whose sums differ (x * d_y
   and d_y), share nothing.  Every gradient component against central
   differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
batchnorm (int n, int m, int ld, const double *x, const double *gamma,
           const double *beta, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += x[i * ld + j];
      double mean = s / n;
      double v = 0;
      for (int i = 0; i < n; i++)
        v += (x[i * ld + j] - mean) * (x[i * ld + j] - mean);
      double rstd = 1 / sqrt (v / n + 1e-5);
      for (int i = 0; i < n; i++)
        y[i * ld + j] = (x[i * ld + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

__attribute__ ((differentiable))
void
scale2 (int n, int m, const float *x, const float *a, const float *b,
        float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * m;
      for (int j = 0; j < m; j++)
        y[i * m + j] = xr[j] * a[i] * b[i];
    }
}

__attribute__ ((differentiable))
void
affine (int n, int m, const float *x, const float *g, const float *c,
        float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] * g[i] + c[i];
}

int
main (void)
{
  int n = 7, m = 5, ld = 6, N = 3, M = 11;
  double *x = tg_alloc (n * ld), *ga = tg_alloc (m), *be = tg_alloc (m);
  double *y = tg_alloc (n * ld);
  float *xf = tg_alloc_f (N * M), *a = tg_alloc_f (N), *b = tg_alloc_f (N);
  float *yf = tg_alloc_f (N * M);
  tg_fill (x, n * ld, 1, -2, 2);
  tg_fill (ga, m, 2, 0.5, 1.5);
  tg_fill (be, m, 3, -1, 1);
  tg_fill_f (xf, N * M, 4, -2, 2);
  tg_fill_f (a, N, 5, 0.5, 1.5);
  tg_fill_f (b, N, 6, -1.5, -0.5);
  TG_GRADCHECK (batchnorm, &n, &m, &ld, x, ga, be, y);
  TG_GRADCHECK_NULL (batchnorm, "gamma beta", &n, &m, &ld, x, ga, be, y);
  TG_GRADCHECK_NULL (batchnorm, "x", &n, &m, &ld, x, ga, be, y);
  TG_GRADCHECK (scale2, &N, &M, xf, a, b, yf);
  TG_GRADCHECK_NULL (scale2, "a", &N, &M, xf, a, b, yf);
  TG_GRADCHECK (affine, &N, &M, xf, a, b, yf);
  free (x), free (ga), free (be), free (y), free (xf), free (a), free (b);
  free (yf);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "share: d_v and d_gamma add up \\(x\\\[j \\+ i \\* ld\\\] - s\\\[j\\\] / \\(double\\) n\\) \\* d_y\\\[j \\+ i \\* ld\\\] once, in t0" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "share: d_s and d_beta add up d_y\\\[j \\+ i \\* ld\\\] once, in t1" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "share: d_a and d_b add up x\\\[j \\+ m \\* i\\\] \\* d_y\\\[j \\+ m \\* i\\\] once, in t0" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "share: " 3 } } */
