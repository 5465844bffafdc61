/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Materialization: in batch normalization's gradient the inverse
   deviation 1/sqrt(var/n + eps), the same for every row of a column, is
   computed once per column into a temporary (the dump says so), not once
   per element.  With xh = (x - mean) rstd and dxh = d_y g[j]:
   d_g[j] += sum_i d_y xh; d_x += rstd (dxh - mean_i dxh - xh mean_i (dxh
   xh)).  TG_GRADCHECK checks every gradient against central differences,
   accumulation into the shadows, and that x, g, y and d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bn (int n, int m, const double *x, const double *g, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += x[i * m + j];
      double mean = s / n;
      double v = 0;
      for (int i = 0; i < n; i++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      double rstd = 1.0 / sqrt (v / n + 1e-5);
      for (int i = 0; i < n; i++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * g[j];
    }
}

enum { N = 5, M = 3 };
int
main (void)
{
  int n = N, m = M;
  double x[N * M], g[M], y[N * M] = { 0 };
  tg_fill (x, N * M, 51, -1, 1);
  tg_fill (g, M, 52, 0.5, 1.5);
  TG_GRADCHECK (bn, &n, &m, x, g, y);
  return tg_exit ();
}
/* { dg-final { scan-tensorgrad-dump {materialize: 1 / sqrt \([^\n]*\) into m[0-9]+\[j\]} } } */
