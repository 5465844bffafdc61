/* { dg-do run } */
/* Adjoints divided by a stored value that rescale (rescale-row-1.c)
   must leave alone.  A softmax dividing in place whose sum is also an
   output (sums[i] = s, d_sums flowing in): the sum's adjoint has a
   contribution not divided by s, so neither it nor the exponentials'
   adjoint (which it flows into) is rescaled;
     d_x[j] += y[j] (d_y[j] - sum_k y[k] d_y[k]) + e[j] d_sums[i].
   One row of exponentials shared by all rows (e[j] / s[i], s[i] = 1 +
   sum_k c[i][k]^2): element j of the exponentials' adjoint is divided
   by every s[i], no one divisor;
     d_w[j] += e[j] sum_i d_y[i][j] / s[i],
     d_c[i][k] += -2 c[i][k] sum_j y[i][j] d_y[i][j] / s[i].
   TG_GRADCHECK checks every component against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
with_sums (int n, int m, const double *x, double *y, double *sums)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	{
	  y[i * m + j] = exp (x[i * m + j]);
	  s += y[i * m + j];
	}
      for (int j = 0; j < m; j++)
	y[i * m + j] /= s;
      sums[i] = s;
    }
}

__attribute__ ((differentiable))
void
shared_row (int n, int m, const double *w, const double *c, double *y)
{
  double e[16];
  for (int j = 0; j < m; j++)
    e[j] = exp (w[j]);
  for (int i = 0; i < n; i++)
    {
      double s = 1;
      for (int k = 0; k < m; k++)
	s += c[i * m + k] * c[i * m + k];
      for (int j = 0; j < m; j++)
	y[i * m + j] = e[j] / s;
    }
}

int
main (void)
{
  int n = 3, m = 7;
  double x[21], y[21], sums[3], w[7], c[21];
  tg_fill (x, n * m, 2, -1.5, 1.5);
  TG_GRADCHECK (with_sums, &n, &m, x, y, sums);
  tg_fill (w, m, 3, -1, 1);
  tg_fill (c, n * m, 4, -1, 1);
  TG_GRADCHECK (shared_row, &n, &m, w, c, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-not "rescale: d_e" } } */
/* { dg-final { scan-tensorgrad-dump-not "rescale: d_y.v1" } } */
