/* { dg-do run } */
/* Calls of differentiable kernels inside a loop, inlined with the loop
   around their nests: a batch loop applies a per-sample layer, y_b = tanh
   (W x_b + c), to each row of a batch through offset pointers, then a
   per-sample normalisation kernel on each output row in the same loop.
   The loss weights every output.  TG_GRADCHECK checks d_x, d_W and d_c
   against central differences with pre-filled shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layer (int n, int m, const double *x, const double *W, const double *c,
       double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = c[j];
      for (int i = 0; i < n; i++)
	s += W[j * n + i] * x[i];
      y[j] = tanh (s);
    }
}

__attribute__ ((differentiable))
void
normalize (int m, const double *y, double *z)
{
  double s = 0;
  for (int j = 0; j < m; j++)
    s += y[j] * y[j];
  for (int j = 0; j < m; j++)
    z[j] = y[j] / sqrt (s + 1);
}

__attribute__ ((differentiable))
void
batch (int B, int n, int m, const double *x, const double *W,
       const double *c, double *y, double *z)
{
  for (int b = 0; b < B; b++)
    {
      layer (n, m, x + b * n, W, c, y + b * m);
      normalize (m, y + b * m, z + b * m);
    }
}

enum { B = 3, N = 4, M = 2 };

int
main (void)
{
  int b = B, n = N, m = M;
  double x[B * N], W[M * N], c[M], y[B * M] = { 0 }, z[B * M] = { 0 };
  tg_fill (x, B * N, 1, -1, 1);
  tg_fill (W, M * N, 2, -0.8, 0.8);
  tg_fill (c, M, 3, -0.3, 0.3);
  TG_GRADCHECK (batch, &b, &n, &m, x, W, c, y, z);
  return tg_exit ();
}
