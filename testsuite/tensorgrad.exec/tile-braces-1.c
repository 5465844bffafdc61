/* { dg-do run } */
/* A register-tiled matrix-vector product whose tile accumulators are
   initialized with braces, double acc[4] = {0, 0, 0, 0} (four stores at
   constant indices, once per tile), accumulated over k inside the loop
   over the tile's rows, stored, then a remainder loop for M % 4 rows;
   the same in float with an 8-row tile and {0} (the rest zero too).
     y[i] = sum_k A[i][k] x[k],  d_A[i][k] += d_y[i] x[k],
     d_x[k] += sum_i d_y[i] A[i][k].  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
gemv4 (int M, int K, const double *A, const double *x, double *y)
{
  int i = 0;
  for (; i + 4 <= M; i += 4)
    {
      double acc[4] = { 0, 0, 0, 0 };
      for (int k = 0; k < K; k++)
        for (int r = 0; r < 4; r++)
          acc[r] += A[(i + r) * K + k] * x[k];
      for (int r = 0; r < 4; r++)
        y[i + r] = acc[r];
    }
  for (; i < M; i++)
    {
      double s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * x[k];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
gemv8 (int M, int K, const float *A, const float *x, float *y)
{
  int i = 0;
  for (; i + 8 <= M; i += 8)
    {
      float acc[8] = { 0 };
      for (int k = 0; k < K; k++)
        for (int r = 0; r < 8; r++)
          acc[r] += A[(i + r) * K + k] * x[k];
      for (int r = 0; r < 8; r++)
        y[i + r] = acc[r];
    }
  for (; i < M; i++)
    {
      float s = 0.0f;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * x[k];
      y[i] = s;
    }
}

int
main (void)
{
  int M = 7, K = 3, Mf = 11;
  double *A = tg_alloc (M * K), *x = tg_alloc (K), *y = tg_alloc (M);
  tg_fill (A, M * K, 1, -1, 1);
  tg_fill (x, K, 2, -1, 1);
  TG_GRADCHECK (gemv4, &M, &K, A, x, y);
  float *Af = tg_alloc_f (Mf * K), *xf = tg_alloc_f (K), *yf = tg_alloc_f (Mf);
  tg_fill_f (Af, Mf * K, 3, -1, 1);
  tg_fill_f (xf, K, 4, -1, 1);
  TG_GRADCHECK (gemv8, &Mf, &K, Af, xf, yf);
  return tg_exit ();
}
