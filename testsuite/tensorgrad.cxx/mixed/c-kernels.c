/* cxx.exp's C file: kernels whose gradients a C++ program calls through
   the header -fplugin-arg-tensorgrad-header writes here.  Their types
   are spelled through typedefs (size_t, a typedef of the file), bool and
   a VLA parameter, which the header spells as C and C++ both read them.

   scale:    y[i] = a * x[i];  d_a += sum x[i] d_y[i], d_x[i] += a d_y[i]
   kept_sum: return sum keep[i] ? x[i]^2 : 0;  d_x[i] += keep[i] ? 2 x[i] d_r : 0
   rows:     y[i] = sum_j x[i][j]^2;  d_x[i][j] += 2 x[i][j] d_y[i]  */

#include <stdbool.h>
#include <stddef.h>

typedef double real;

__attribute__ ((differentiable))
void
scale (size_t n, real a, const real *x, real *y)
{
  for (size_t i = 0; i < n; i++)
    y[i] = a * x[i];
}

__attribute__ ((differentiable))
double
kept_sum (int n, const bool *keep, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += keep[i] ? x[i] * x[i] : 0;
  return s;
}

__attribute__ ((differentiable))
void
rows (int n, int m, const double x[n][m], double y[n])
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i][j] * x[i][j];
      y[i] = s;
    }
}
