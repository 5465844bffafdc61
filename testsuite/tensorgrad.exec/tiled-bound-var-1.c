/* { dg-do run } */
/* A register-tiled matrix-vector product whose tile count is a
   variable: the tiles' bound kept in Mt, the remainder loop a loop of
   its own from Mt (not the tiled loop's counter carried on), so the two
   nests write y apart only because Mt is a multiple of the tile.
   y[i] = sum_k A[i][k] x[k] (+ b[i] in tanhmv):
   mv8:    float, int Mt = M - M % 8, tiles of a per-tile acc[8];
           d_A[i][k] += d_y[i] x[k], d_x[k] += sum_i d_y[i] A[i][k];
   tanh4:  double, long Mt = M / 4 * 4, y[i] = tanh (b[i] + (A x)[i]),
           the tiles' acc[4] seeded from b: G = d_y (1 - y^2),
           d_A[i][k] += G[i] x[k], d_x[k] += sum_i G[i] A[i][k],
           d_b += G (b optional: a NULL shadow);
   mask8:  double, unsigned Mt = M & ~7u.
   The user never sees "bitwise operations on indices" nor two nests
   that "may write the same elements".  M = 19, 16, 13, 7, 1.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mv8 (int M, int K, const float *A, const float *x, float *y)
{
  int Mt = M - M % 8;
  for (int i0 = 0; i0 < Mt; i0 += 8)
    {
      float acc[8];
      for (int r = 0; r < 8; r++)
        acc[r] = 0;
      for (int k = 0; k < K; k++)
        for (int r = 0; r < 8; r++)
          acc[r] += A[(i0 + r) * K + k] * x[k];
      for (int r = 0; r < 8; r++)
        y[i0 + r] = acc[r];
    }
  for (int i = Mt; i < M; i++)
    {
      const float *a = A + i * K;
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[k] * x[k];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
tanh4 (long M, int K, const double *A, const double *x, const double *b,
       double *y)
{
  long Mt = M / 4 * 4;
  for (long i0 = 0; i0 < Mt; i0 += 4)
    {
      double acc[4];
      for (int r = 0; r < 4; r++)
        acc[r] = b[i0 + r];
      for (int k = 0; k < K; k++)
        for (int r = 0; r < 4; r++)
          acc[r] += A[(i0 + r) * K + k] * x[k];
      for (int r = 0; r < 4; r++)
        y[i0 + r] = tanh (acc[r]);
    }
  for (long i = Mt; i < M; i++)
    {
      double s = b[i];
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * x[k];
      y[i] = tanh (s);
    }
}

__attribute__ ((differentiable))
void
mask8 (unsigned M, int K, const double *A, const double *x, double *y)
{
  unsigned Mt = M & ~7u;
  for (unsigned i0 = 0; i0 < Mt; i0 += 8)
    {
      double acc[8] = { 0 };
      for (int k = 0; k < K; k++)
        for (int r = 0; r < 8; r++)
          acc[r] += A[(i0 + r) * K + k] * x[k];
      for (int r = 0; r < 8; r++)
        y[i0 + r] = acc[r];
    }
  for (unsigned i = Mt; i < M; i++)
    {
      double s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * x[k];
      y[i] = s;
    }
}

int
main (void)
{
  static const int sizes[] = { 19, 16, 13, 7, 1 };
  for (int t = 0; t < 5; t++)
    {
      int M = sizes[t], K = 3;
      long Ml = M;
      unsigned Mu = M;
      float *Af = tg_alloc_f (M * K), *xf = tg_alloc_f (K);
      float *yf = tg_alloc_f (M);
      tg_fill_f (Af, M * K, 1 + t, -1, 1);
      tg_fill_f (xf, K, 11 + t, -1, 1);
      TG_GRADCHECK (mv8, &M, &K, Af, xf, yf);

      double *A = tg_alloc (M * K), *x = tg_alloc (K), *b = tg_alloc (M);
      double *y = tg_alloc (M);
      tg_fill (A, M * K, 21 + t, -0.8, 0.8);
      tg_fill (x, K, 31 + t, -1, 1);
      tg_fill (b, M, 41 + t, -0.5, 0.5);
      TG_GRADCHECK (tanh4, &Ml, &K, A, x, b, y);
      TG_GRADCHECK_NULL (tanh4, "b", &Ml, &K, A, x, b, y);
      TG_GRADCHECK (mask8, &Mu, &K, A, x, y);
      TG_GRADCHECK_NULL (mask8, "x", &Mu, &K, A, x, y);
      free (Af), free (xf), free (yf), free (A), free (x), free (b),
        free (y);
    }
  return tg_exit ();
}
