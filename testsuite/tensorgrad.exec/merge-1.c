/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An adjoint's elementwise terms are added in the later nest that adds to
   the same elements (lib/passes/merge.c): batch norm's d_x gets its
   direct term gamma * rstd * d_y in the last nest, after the sums, with
   the terms through the statistics, so d_x is read and written once
   (float, rows LD elements apart, NULL shadows); a softmax over rows by
   pointer offsets (double) gets y * d_y and y times its row's sum in
   one update after the sum.  Every gradient component against central
   differences at odd sizes; the dump names each move.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
batchnorm (int n, int m, int ld, const float *x, const float *gamma,
           const float *beta, float *y)
{
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += x[i * ld + j];
      float mean = s / n;
      float v = 0.0f;
      for (int i = 0; i < n; i++)
        v += (x[i * ld + j] - mean) * (x[i * ld + j] - mean);
      float rstd = 1.0f / sqrtf (v / n + 1e-5f);
      for (int i = 0; i < n; i++)
        y[i * ld + j] = (x[i * ld + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

__attribute__ ((differentiable))
void
softmax (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *xr = x + i * m;
      double mx = xr[0];
      for (int j = 1; j < m; j++)
        mx = fmax (mx, xr[j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        s += exp (xr[j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = exp (xr[j] - mx) / s;
    }
}

void batchnorm_grad (int, int, int, const float *, const float *,
                     const float *, float *, float *, float *, float *,
                     float *);

/* With d_y NULL (a zero adjoint) the merged nest, which reads d_y as 0
   then, adds nothing: every input shadow keeps its value.  */
static void
null_d_y (int n, int m, int ld, const float *x, const float *ga,
          const float *be, float *y)
{
  float *dx = tg_alloc_f (n * ld), *dg = tg_alloc_f (m), *db = tg_alloc_f (m);
  for (int i = 0; i < n * ld; i++)
    dx[i] = 0.5f;
  for (int j = 0; j < m; j++)
    dg[j] = db[j] = 0.25f;
  batchnorm (n, m, ld, x, ga, be, y);
  batchnorm_grad (n, m, ld, x, ga, be, y, dx, dg, db, NULL);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      CHECK_AT (dx[i * ld + j] == 0.5f, i * ld + j);
  for (int j = 0; j < m; j++)
    CHECK_AT (dg[j] == 0.25f && db[j] == 0.25f, j);
  free (dx), free (dg), free (db);
}

int
main (void)
{
  int n = 7, m = 5, ld = 9, N = 3, M = 13;
  float *x = tg_alloc_f (n * ld), *ga = tg_alloc_f (m), *be = tg_alloc_f (m);
  float *y = tg_alloc_f (n * ld);
  double *xd = tg_alloc (N * M), *yd = tg_alloc (N * M);
  tg_fill_f (x, n * ld, 1, -2, 2);
  tg_fill_f (ga, m, 2, 0.5, 1.5);
  tg_fill_f (be, m, 3, -1, 1);
  tg_fill (xd, N * M, 4, -3, 3);
  TG_GRADCHECK (batchnorm, &n, &m, &ld, x, ga, be, y);
  TG_GRADCHECK_NULL (batchnorm, "gamma beta", &n, &m, &ld, x, ga, be, y);
  TG_GRADCHECK_NULL (batchnorm, "x", &n, &m, &ld, x, ga, be, y);
  null_d_y (n, m, ld, x, ga, be, y);
  TG_GRADCHECK (softmax, &N, &M, xd, yd);
  free (x), free (ga), free (be), free (y), free (xd), free (yd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "merge: the terms of d_x in stage \[0-9\]+ are added in stage \[0-9\]+, at the same elements" 3 } } */
