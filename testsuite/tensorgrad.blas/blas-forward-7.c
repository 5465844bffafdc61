/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */
/* blas-forward with the activation written as a helper function of the
   file (static inline, its value substituted by the lifter, as C++'s
   std::tanh is): the nest calling it is the product's nest all the
   same (plugin/forward.cc, math_call), and the function the kernel
   calls computes the helper's value from the lifted program.  A float
   layer through a logistic helper that calls another helper, and a
   double one through a helper with an early return; the forwards
   against the same mathematics in double, one CBLAS call per forward,
   the gradients against central differences.  */

#include <math.h>
#include "tg-test.h"
#include "blas-calls.h"

static inline float
expo (float a)
{
  return expf (-a);
}

static inline float
logistic (float a)
{
  return 1.0f / (1.0f + expo (a));
}

__attribute__ ((differentiable))
double
layer_f (int n, int k, int m, const float *x, const float *w,
         const float *b)
{
  float h[n * m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        h[i * m + j] = logistic (acc);
      }
  double s = 0;
  for (int e = 0; e < n * m; e++)
    s += (double) h[e] * h[e] * (1 + e % 3);
  return s;
}

static inline double
softsign_shift (double a)
{
  if (a > 40)
    return 1.0;
  return a / (1.0 + sqrt (1.0 + a * a));
}

__attribute__ ((differentiable))
void
layer_d (int n, int k, int m, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = 0;
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = softsign_shift (acc);
      }
}

int
main (void)
{
  int n = 13, k = 21, m = 17;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m);
  float *b = tg_alloc_f (m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -0.5, 0.5);
  tg_fill_f (b, m, 3, -0.5, 0.5);
  sgemm_calls = 0;
  double s = layer_f (n, k, m, x, w, b);
  CHECK (sgemm_calls == 1);
  double want = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = b[j];
        for (int p = 0; p < k; p++)
          acc += (double) x[i * k + p] * w[p * m + j];
        double h = 1 / (1 + exp (-acc));
        want += h * h * (1 + (i * m + j) % 3);
      }
  CHECK_NEAR (s, want, 1e-5, 1e-5);
  TG_GRADCHECK (layer_f, &n, &k, &m, x, w, b);

  double *xd = tg_alloc (n * k), *wd = tg_alloc (k * m);
  double *y = tg_alloc (n * m);
  tg_fill (xd, n * k, 4, -1, 1);
  tg_fill (wd, k * m, 5, -0.5, 0.5);
  dgemm_calls = 0;
  layer_d (n, k, m, xd, wd, y);
  CHECK (dgemm_calls == 1);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = 0;
        for (int p = 0; p < k; p++)
          acc += xd[i * k + p] * wd[p * m + j];
        CHECK_NEAR_AT (y[i * m + j], acc / (1 + sqrt (1 + acc * acc)),
                       1e-12, 1e-14, i * m + j);
      }
  TG_GRADCHECK (layer_d, &n, &k, &m, xd, wd, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 41\\): h = x \\* w as cblas_sgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 67\\): y = x \\* w as cblas_dgemm \\(n, m, k\\)\n" } } */
