/* { dg-do run } */
/* Calls of differentiable kernels inside a loop, inlined with the loop
   around their nests: a batch loop applies a per-sample layer, y_b = tanh
   (W x_b + c), to each row of a batch through offset pointers, then a
   per-sample normalisation kernel on each output row in the same loop.
   The loss weights every output.  Checks d_x, d_W and d_c against
   central differences with pre-filled shadows.  */

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

struct ctx
{
  double *x, *W, *c, *y, *z, *cy, *cz;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  batch (B, N, M, k->x, k->W, k->c, k->y, k->z);
  return tg_dot (k->cy, k->y, B * M) + tg_dot (k->cz, k->z, B * M);
}

int
main (void)
{
  double x[B * N], W[M * N], c[M], y[B * M], z[B * M], cy[B * M], cz[B * M];
  double d_x[B * N], d_W[M * N], d_c[M];
  tg_fill (x, B * N, 1, -1, 1);
  tg_fill (W, M * N, 2, -0.8, 0.8);
  tg_fill (c, M, 3, -0.3, 0.3);
  tg_fill (cy, B * M, 4, -1, 1);
  tg_fill (cz, B * M, 5, -1, 1);
  tg_fill (d_x, B * N, 6, -1, 1);
  tg_fill (d_W, M * N, 7, -1, 1);
  tg_fill (d_c, M, 8, -1, 1);
  double *px = tg_dup (d_x, B * N), *pW = tg_dup (d_W, M * N);
  double *pc = tg_dup (d_c, M);
  batch (B, N, M, x, W, c, y, z);
  batch_grad (B, N, M, x, W, c, y, z, d_x, d_W, d_c, cy, cz);
  tg_sub (d_x, d_x, px, B * N);
  tg_sub (d_W, d_W, pW, M * N);
  tg_sub (d_c, d_c, pc, M);
  struct ctx k = { x, W, c, y, z, cy, cz };
  tg_fd_check ("x", x, B * N, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("W", W, M * N, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("c", c, M, loss, &k, d_c, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
