/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A sum of deviations from their own mean is zero (lib/passes/center.c):
   the variance's dependence on the mean it subtracts adds nothing to the
   mean's adjoint, and its statement is dropped.  Batch norm written
   feature by feature (float, as Darknet-style C), a layer norm over rows
   by pointer offsets with the mean and reciprocal deviation as outputs
   (double, gain NULL-able), and a variance about another array's mean,
   which is no deviation from its own mean and keeps its term.  With the
   term gone, batch norm's d3[j] = d_s[j] / n runs before the last two
   nests over (i, j), which then run as one (rows.c).  Every gradient
   component against central differences, at odd sizes.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
batchnorm (int n, int m, const float *x, const float *gamma,
           const float *beta, float *y)
{
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += x[i * m + j];
      float mean = s / n;
      float v = 0.0f;
      for (int i = 0; i < n; i++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      float rstd = 1.0f / sqrtf (v / n + 1e-5f);
      for (int i = 0; i < n; i++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

__attribute__ ((differentiable))
void
layernorm (int N, int C, const double *x, const double *g, double *y,
           double *mean, double *rstd)
{
  for (int r = 0; r < N; r++)
    {
      const double *xr = x + r * C;
      double s = 0;
      for (int c = 0; c < C; c++)
        s += xr[c];
      double mu = s / C;
      double v = 0;
      for (int c = 0; c < C; c++)
        v += (xr[c] - mu) * (xr[c] - mu);
      double rs = 1 / sqrt (v / C + 1e-5);
      for (int c = 0; c < C; c++)
        y[r * C + c] = (xr[c] - mu) * rs * (g ? g[c] : 1.0);
      mean[r] = mu;
      rstd[r] = rs;
    }
}

/* The spread of x about the mean of w: not centered.  */
__attribute__ ((differentiable))
double
spread (int n, const double *x, const double *w)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i];
  double mu = s / n;
  double v = 0;
  for (int i = 0; i < n; i++)
    v += (x[i] - mu) * (x[i] - mu);
  return v;
}

int
main (void)
{
  int n = 7, m = 5, N = 3, C = 9;
  float *x = tg_alloc_f (n * m), *ga = tg_alloc_f (m), *be = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m);
  double *xd = tg_alloc (N * C), *g = tg_alloc (C), *yd = tg_alloc (N * C);
  double *mean = tg_alloc (N), *rstd = tg_alloc (N), *w = tg_alloc (C);
  tg_fill_f (x, n * m, 1, -2, 2);
  tg_fill_f (ga, m, 2, 0.5, 1.5);
  tg_fill_f (be, m, 3, -1, 1);
  tg_fill (xd, N * C, 4, -2, 2);
  tg_fill (g, C, 5, 0.5, 1.5);
  tg_fill (w, C, 6, -1, 1);
  TG_GRADCHECK (batchnorm, &n, &m, x, ga, be, y);
  TG_GRADCHECK_NULL (batchnorm, "gamma beta", &n, &m, x, ga, be, y);
  TG_GRADCHECK (layernorm, &N, &C, xd, g, yd, mean, rstd);
  TG_GRADCHECK (layernorm, &N, &C, xd, (double *) NULL, yd, mean, rstd);
  TG_GRADCHECK (spread, &C, xd, w);
  free (x), free (ga), free (be), free (y), free (xd), free (g), free (yd);
  free (mean), free (rstd), free (w);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "center: \[a-z_0-9\]* gets no term from the deviations over i from their mean, which sum to zero" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "center: \[a-z_0-9\]* gets no term from the deviations over c from their mean, which sum to zero" 1 } } */
