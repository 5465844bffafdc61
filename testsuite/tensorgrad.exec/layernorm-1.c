/* { dg-do run } */
/* Layer normalisation of the rows of an n x m matrix (5 x 4 at run time)
   with a per-column gain g and bias b, eps = 1e-5 a constant:
   mu = mean_j x[i*m+j]; var = mean_j (x - mu)^2; r = 1 / sqrt (var + eps);
   y[i*m+j] = g[j] (x[i*m+j] - mu) r + b[j].  With xh = (x - mu) r and
   dxh = d_y g[j]: d_g[j] += sum_i d_y xh; d_b[j] += sum_i d_y;
   d_x += r (dxh - mean_j dxh - xh mean_j (dxh xh)).  TG_GRADCHECK checks
   every d_x, d_g and d_b against central differences, accumulation into
   pre-filled shadows, and that x, g, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, const double *x, const double *g, const double *b,
           double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mu = 0;
      for (int j = 0; j < m; j++)
	mu += x[i * m + j];
      mu = mu / m;
      double var = 0;
      for (int j = 0; j < m; j++)
	var += (x[i * m + j] - mu) * (x[i * m + j] - mu);
      var = var / m;
      double r = 1 / sqrt (var + 1e-5);
      for (int j = 0; j < m; j++)
	y[i * m + j] = g[j] * (x[i * m + j] - mu) * r + b[j];
    }
}

int
main (void)
{
  int n = 5, m = 4;
  double *x = tg_alloc (n * m), *g = tg_alloc (m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (g, m, 2, 0.5, 2);
  tg_fill (b, m, 3, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, x, g, b, y);
  return tg_exit ();
}
