/* { dg-do run } */
/* Counters stepped by hand: register-tiled matrix products, whose tiled
   loop steps i by the tile and leaves it where a remainder loop starts.
   mm8:   float, C = A B with A M x K, B K x N, rows in tiles of 8 with a
          per-tile scratch float acc[8] (zeroed, accumulated over k,
          stored), for (; i + 8 <= M; i += 8), then the remainder rows
          for (; i < M; i++):  d_A = d_C B^T, d_B = A^T d_C.
   dense4: double, C = tanh (A W + bias) in tiles of 4 rows,
          for (i = 0; i < M - M % 4; i += 4), the scratch starting from
          the bias, then the rest:  with G = d_C (1 - C^2),
          d_A = G W^T, d_W = A^T G, d_bias[j] = sum_i G[i][j].
   Sizes that are and are not multiples of the tile (M = 16, 13, 5, 3):
   tiles only, tiles and a remainder, the remainder only.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mm8 (int M, int N, int K, const float *a, const float *b, float *c)
{
  int i = 0;
  for (; i + 8 <= M; i += 8)
    for (int j = 0; j < N; j++)
      {
        float acc[8];
        for (int r = 0; r < 8; r++)
          acc[r] = 0;
        for (int k = 0; k < K; k++)
          for (int r = 0; r < 8; r++)
            acc[r] += a[(i + r) * K + k] * b[k * N + j];
        for (int r = 0; r < 8; r++)
          c[(i + r) * N + j] = acc[r];
      }
  for (; i < M; i++)
    for (int j = 0; j < N; j++)
      {
        float s = 0;
        for (int k = 0; k < K; k++)
          s += a[i * K + k] * b[k * N + j];
        c[i * N + j] = s;
      }
}

__attribute__ ((differentiable))
void
dense4 (int M, int N, int K, const double *a, const double *w,
        const double *bias, double *c)
{
  int i;
  for (i = 0; i < M - M % 4; i += 4)
    for (int j = 0; j < N; j++)
      {
        double acc[4];
        for (int r = 0; r < 4; r++)
          acc[r] = bias[j];
        for (int k = 0; k < K; k++)
          for (int r = 0; r < 4; r++)
            acc[r] += a[(i + r) * K + k] * w[k * N + j];
        for (int r = 0; r < 4; r++)
          c[(i + r) * N + j] = tanh (acc[r]);
      }
  for (; i < M; i++)
    for (int j = 0; j < N; j++)
      {
        double s = bias[j];
        for (int k = 0; k < K; k++)
          s += a[i * K + k] * w[k * N + j];
        c[i * N + j] = tanh (s);
      }
}

int
main (void)
{
  static const int sizes[] = { 16, 13, 5, 3 };
  for (int t = 0; t < 4; t++)
    {
      int M = sizes[t], N = 3, K = 4;
      float *a = tg_alloc_f (M * K), *b = tg_alloc_f (K * N);
      float *c = tg_alloc_f (M * N);
      tg_fill_f (a, M * K, 1 + t, -1, 1);
      tg_fill_f (b, K * N, 11 + t, -1, 1);
      TG_GRADCHECK (mm8, &M, &N, &K, a, b, c);

      double *ad = tg_alloc (M * K), *w = tg_alloc (K * N);
      double *bias = tg_alloc (N), *cd = tg_alloc (M * N);
      tg_fill (ad, M * K, 21 + t, -1, 1);
      tg_fill (w, K * N, 31 + t, -0.8, 0.8);
      tg_fill (bias, N, 41 + t, -0.5, 0.5);
      TG_GRADCHECK (dense4, &M, &N, &K, ad, w, bias, cd);
      TG_GRADCHECK_NULL (dense4, "w", &M, &N, &K, ad, w, bias, cd);
      free (a), free (b), free (c), free (ad), free (w), free (bias),
        free (cd);
    }
  return tg_exit ();
}
