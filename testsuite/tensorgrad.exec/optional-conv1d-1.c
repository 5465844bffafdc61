/* { dg-do run } */
/* A 1-D convolution over C output channels whose bias is added only when
   it is given (`if (bias) s += bias[c];'):
     s[c][t] = sum_k x[t + k] w[c][k] (+ bias[c]),  y[c][t] = tanh (s),
     d_s = d_y (1 - y^2), d_x[t + k] += sum_c d_s w[c][k],
     d_w[c][k] += sum_t d_s x[t + k], d_bias[c] += sum_t d_s (bias given).
   conv1d_f, in float, has a ReLU instead of tanh, its bias added after a
   branch of its own (if (bias != NULL) y = ... + bias[c]; else y = ...).  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv1d (int T, int K, int C, const double *x, const double *w,
        const double *bias, double *y)
{
  for (int c = 0; c < C; c++)
    for (int t = 0; t < T; t++)
      {
        double s = 0;
        for (int k = 0; k < K; k++)
          s += x[t + k] * w[c * K + k];
        if (bias)
          s += bias[c];
        y[c * T + t] = tanh (s);
      }
}

__attribute__ ((differentiable))
void
conv1d_f (int T, int K, int C, const float *x, const float *w,
          const float *bias, float *y)
{
  for (int c = 0; c < C; c++)
    for (int t = 0; t < T; t++)
      {
        float s = 0;
        for (int k = 0; k < K; k++)
          s += x[t + k] * w[c * K + k];
        float z;
        if (bias != NULL)
          z = s + bias[c];
        else
          z = s;
        y[c * T + t] = z > 0 ? z : 0.1f * z;
      }
}

int
main (void)
{
  int T = 6, K = 3, C = 2, L = T + K - 1;
  double *x = tg_alloc (L), *w = tg_alloc (C * K), *b = tg_alloc (C);
  double *y = tg_alloc (C * T);
  tg_fill (x, L, 1, -1, 1);
  tg_fill (w, C * K, 2, -1, 1);
  tg_fill (b, C, 3, -1, 1);
  TG_GRADCHECK (conv1d, &T, &K, &C, x, w, b, y);
  TG_GRADCHECK (conv1d, &T, &K, &C, x, w, NULL, y);
  TG_GRADCHECK_NULL (conv1d, "bias", &T, &K, &C, x, w, b, y);
  TG_GRADCHECK_NULL (conv1d, "w", &T, &K, &C, x, w, NULL, y);

  float *xf = tg_alloc_f (L), *wf = tg_alloc_f (C * K), *bf = tg_alloc_f (C);
  float *yf = tg_alloc_f (C * T);
  tg_fill_f (xf, L, 4, -1, 1);
  tg_fill_f (wf, C * K, 5, -1, 1);
  tg_fill_f (bf, C, 6, 0.05, 0.5);
  TG_GRADCHECK (conv1d_f, &T, &K, &C, xf, wf, bf, yf);
  TG_GRADCHECK (conv1d_f, &T, &K, &C, xf, wf, NULL, yf);
  TG_GRADCHECK_NULL (conv1d_f, "bias x", &T, &K, &C, xf, wf, bf, yf);
  return tg_exit ();
}
