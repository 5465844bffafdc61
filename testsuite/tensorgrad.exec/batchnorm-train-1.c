/* { dg-do run } */
/* Batch normalisation in training mode: the mean and variance of each of
   c = 3 channels over a batch of n = 5 rows (x n x c at run time, the
   channel outermost, the batch reductions inner), a per-channel gain g
   and bias b, eps = 1e-5 a constant:
   mu = mean_i x[i*c+j]; var = mean_i (x - mu)^2; r = 1 / sqrt (var + eps);
   y[i*c+j] = g[j] (x[i*c+j] - mu) r + b[j].  With xh = (x - mu) r and
   dxh = d_y g[j]: d_g[j] += sum_i d_y xh; d_b[j] += sum_i d_y;
   d_x += r (dxh - mean_i dxh - xh mean_i (dxh xh)).  TG_GRADCHECK checks
   every d_x, d_g and d_b against central differences, accumulation into
   pre-filled shadows, and that x, g, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
batchnorm_train (int n, int c, const double *x, const double *g,
                 const double *b, double *y)
{
  for (int j = 0; j < c; j++)
    {
      double mu = 0;
      for (int i = 0; i < n; i++)
	mu += x[i * c + j];
      mu = mu / n;
      double var = 0;
      for (int i = 0; i < n; i++)
	var += (x[i * c + j] - mu) * (x[i * c + j] - mu);
      var = var / n;
      double r = 1 / sqrt (var + 1e-5);
      for (int i = 0; i < n; i++)
	y[i * c + j] = g[j] * (x[i * c + j] - mu) * r + b[j];
    }
}

int
main (void)
{
  int n = 5, c = 3;
  double *x = tg_alloc (n * c), *g = tg_alloc (c), *b = tg_alloc (c);
  double *y = tg_alloc (n * c);
  tg_fill (x, n * c, 1, -2, 2);
  tg_fill (g, c, 2, 0.5, 2);
  tg_fill (b, c, 3, -1, 1);
  TG_GRADCHECK (batchnorm_train, &n, &c, x, g, b, y);
  return tg_exit ();
}
