/* { dg-do run } */
/* A scalar reduced over a 2-D nest (mu, summed over i and j) and used by
   later nests, next to a fixed 2-D local, a VLA and an output read back
   (written by a tester as new code; the sum over two loops was once
   mistaken for a value to store per row).  With
   t = x g[j], u[i] = sqrt (sum_j (t - mu)^2 + 1e-3), y = (t - mu) / u[i]
   and z[j] = sum_i y^2 u[i], backwards:
     yb = d_y + 2 d_z[j] y u[i];  ub[i] = sum_j (d_z[j] y^2 - yb y / u[i]);
     tb = yb / u[i] + ub[i] (t - mu) / u[i];  mub = -sum_ij tb;
     d_x += (tb + mub / (n m)) g[j];  d_g[j] += sum_i (tb + mub / (n m)) x.
   TG_GRADCHECK checks d_x and d_g against central differences,
   accumulation into the shadows, and that inputs, outputs and output
   shadows are unchanged.  */
#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
center_scale (int n, int m, const double *x, const double *g, double *y,
              double *z)
{
  double t[8][8];
  double u[n];
  double mu = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        t[i][j] = x[i * m + j] * g[j];
        mu += t[i][j];
      }
  mu = mu / (n * m);
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += (t[i][j] - mu) * (t[i][j] - mu);
      u[i] = sqrt (s + 1e-3);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = (t[i][j] - mu) / u[i];
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += y[i * m + j] * y[i * m + j] * u[i];
      z[j] = s;
    }
}

int
main (void)
{
  int n = 5, m = 7;
  double *x = tg_alloc (n * m), *g = tg_alloc (m), *y = tg_alloc (n * m);
  double *z = tg_alloc (m);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (g, m, 2, 0.5, 1.5);
  TG_GRADCHECK (center_scale, &n, &m, x, g, y, z);
  return tg_exit ();
}
