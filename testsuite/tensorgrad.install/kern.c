/* The kernel install.exp builds with the installed plugin (pkg-config,
   ccache, the CMake project of cmake/): a row's sum of squares scaled by the
   exponential of a weight,
     y[i] = exp (a) * sum_j x[i][j]^2,
   so d_x[i][j] = d_y[i] * exp (a) * 2 x[i][j] and
   d_a = sum_i d_y[i] * y[i].  */

#include <math.h>
#include <tensorgrad.h>

TG_DIFFERENTIABLE void
rows (int n, int m, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * x[i * m + j];
      y[i] = exp (a) * s;
    }
}
