/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Layer normalisation written with row statistics in sibling loops: the
   mean is summed by one loop and used inside the variance's sum in the
   next.  Both are computed once per row, before the loops that use them
   (the mean was once summed again for every term of the variance, a
   gradient a thousand times slower at 1024 columns).  With xh = (x - mean) rstd and
   dxh = d_y gamma[j]: d_gamma[j] += sum_i d_y xh; d_beta[j] += sum_i d_y;
   d_x += rstd (dxh - mean_j dxh - xh mean_j (dxh xh)).  TG_GRADCHECK checks
   d_x, d_gamma and d_beta against central differences, accumulation into
   the shadows, and that x, gamma, beta, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, const double *x, const double *gamma,
	   const double *beta, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += x[i * m + j];
      double mean = s / m;
      double v = 0;
      for (int j = 0; j < m; j++)
	v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      double rstd = 1 / sqrt (v / m + 1e-5);
      for (int j = 0; j < m; j++)
	y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

/* The mean once per row, then the variance from it.  */
/* { dg-final { scan-tensorgrad-dump "s\\\[i\\\] = sum \\(j < m; 0; x\\\[m \\* i \\+ j\\\]\\);" } } */
/* { dg-final { scan-tensorgrad-dump "v\\\[i\\\] = sum \\(j < m; 0; \\(x\\\[m \\* i \\+ j\\\] - s\\\[i\\\] / \\(double\\) m\\)" } } */

enum { N = 3, M = 5 };

int
main (void)
{
  int n = N, m = M;
  double x[N * M], g[M], b[M], y[N * M] = { 0 };
  tg_fill (x, N * M, 1, -2, 2);
  tg_fill (g, M, 2, 0.5, 1.5);
  tg_fill (b, M, 3, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, x, g, b, y);
  return tg_exit ();
}
