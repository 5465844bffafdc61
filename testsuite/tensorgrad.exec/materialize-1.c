/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Materialization: in batch normalization's gradient the inverse
   deviation 1/sqrt(var/n + eps), the same for every row of a column, is
   computed once per column into a temporary (the dump says so), not once
   per element.  Every gradient against central differences.  */

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
static double x[N * M], g[M], y[N * M], c[N * M];

static double
loss (void *v)
{
  (void) v;
  bn (N, M, x, g, y);
  return tg_dot (c, y, N * M);
}

int
main (void)
{
  tg_fill (x, N * M, 51, -1, 1);
  tg_fill (g, M, 52, 0.5, 1.5);
  tg_fill (c, N * M, 53, -1, 1);
  double dx[N * M] = { 0 }, dg[M] = { 0 }, dy[N * M];
  bn (N, M, x, g, y);
  memcpy (dy, c, sizeof dy);
  bn_grad (N, M, x, g, y, dx, dg, dy);
  CHECK (memcmp (dy, c, sizeof dy) == 0);
  tg_fd_check ("x", x, N * M, loss, 0, dx, 1e-6, 1e-8);
  tg_fd_check ("g", g, M, loss, 0, dg, 1e-6, 1e-8);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump {materialize: 1 / sqrt \([^\n]*\) into m[0-9]+\[j\]} } } */
