/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-vector-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */
/* -fplugin-arg-tensorgrad-vector-forward with blas-forward: the kernel's
   tanhf is vector-math's declaration by then (plugin/forward.cc,
   forward_vectorize), and the nest that computes a dense layer through
   it still becomes the helper's CBLAS call (the nest check takes that
   declaration as a math call; the helper's own tanhf loop is libmvec's
   too); the loss after it, a sum of logs in double (float sums of a
   thousand terms are too noisy for the finite differences).  The
   forward against the same mathematics in double, the CBLAS calls
   counted (one per forward), the gradient against central differences
   (float, 29 x 19 x 37: rests after the vectors).  */

#include <math.h>
#include "tg-test.h"
#include "blas-calls.h"

__attribute__ ((differentiable))
double
dense_tanh (int n, int k, int m, const float *x, const float *w,
            const float *b)
{
  float h[n * m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        h[i * m + j] = tanhf (acc);
      }
  double s = 0.0;
  for (int e = 0; e < n * m; e++)
    s += logf (2.0f + h[e]);
  return s;
}

int
main (void)
{
  int n = 29, k = 19, m = 37;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m);
  float *b = tg_alloc_f (m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -0.3, 0.3);
  tg_fill_f (b, m, 3, -0.5, 0.5);
  sgemm_calls = 0;
  double s = dense_tanh (n, k, m, x, w, b);
  CHECK (sgemm_calls == 1);
  double want = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = b[j];
        for (int p = 0; p < k; p++)
          acc += (double) x[i * k + p] * w[p * m + j];
        want += log (2.0 + tanh (acc));
      }
  CHECK_NEAR (s, want, 1e-5, 1e-5);
  int n3 = 3;
  TG_GRADCHECK (dense_tanh, &n3, &k, &m, x, w, b);
  TG_GRADCHECK (dense_tanh, &n, &k, &m, x, w, b);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 30\\): h = x \\* w as cblas_sgemm \\(n, m, k\\)\n" } } */
