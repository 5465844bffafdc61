/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-vector-forward" } */
/* vector-forward's options (-fassociative-math -fno-signed-zeros
   -fno-trapping-math) are the kernel's, not its gradient's: the
   gradient is compiled with the options the kernel was written with
   (forward_gradient_optimization).  With the kernel's, GCC 12 at -O3
   vectorized this gradient's nest of the rotation (d_x's two pair
   elements and the angle's sum in one loop) wrongly, the last row's
   d_x taking the first row's values: found by the fuzzer (seed 1209702,
   kernel 114); the nest alone, in plain C with those three flags, gives
   the same wrong values (a GCC bug, which -ffast-math users meet too).
   The gradient against central differences at every -O level (fails
   at -O3 when the gradient gets the kernel's options, checked).  */

#include <math.h>
#include "tg-test.h"

/* The fuzzer's kernel: a rotation of rows of 4 (two pairs, sizes
   constants as in a model's fixed head size) beside a layer norm of
   other rows (what follows the nest decides GCC's vectorization of
   it: the rotation alone was compiled right).  */
__attribute__ ((differentiable))
void
rotate_norm (const double *x, int n2, const double *theta, double *y,
             int n, const double *z, const double *beta, double *w)
{
  (void) n2;
  for (int r = 0; r < 4; r++)
    {
      for (int i = 0; i < 4 / 2; i++)
        {
          double a = x[r * 4 + 2 * i], b = x[r * 4 + 2 * i + 1];
          double c = cos (theta[i]), s = sin (theta[i]);
          y[r * 4 + 2 * i] = a * c - b * s;
          y[r * 4 + 2 * i + 1] = a * s + b * c;
        }
      for (int j = 2 * (4 / 2); j < 4; j++)
        y[r * 4 + j] = x[r * 4 + j];
    }
  for (int i = 0; i < n; i++)
    {
      double sum = 0.0;
      for (int j = 0; j < n; j++)
        sum += z[i * n + j];
      double mean = sum / n;
      double var = 0.0;
      for (int j = 0; j < n; j++)
        var += (z[i * n + j] - mean) * (z[i * n + j] - mean);
      double rs = 1.0 / sqrt (var / n + 0.1);
      for (int j = 0; j < n; j++)
        w[i * n + j] = (z[i * n + j] - mean) * rs + beta[j];
    }
}

int
main (void)
{
  double x[16], theta[2], y[16], z[9], beta[3], w[9];
  int n2 = 2, n = 3;
  tg_fill (x, 16, 1, -1, 1);
  tg_fill (theta, 2, 2, -1.5, 1.5);
  tg_fill (z, 9, 3, -1, 1);
  tg_fill (beta, 3, 4, -0.5, 0.5);
  TG_GRADCHECK (rotate_norm, x, &n2, theta, y, &n, z, beta, w);
  return tg_exit ();
}
