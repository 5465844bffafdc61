/* { dg-do run } */
/* Bias broadcast over rows, 2-D flat-indexed, n x m at run time:
   y[i*m+j] = x[i*m+j] + b[j].  d_x[i*m+j] += d_y[i*m+j];
   d_b[j] += sum_i d_y[i*m+j] (the broadcast's adjoint sums over i).
   TG_GRADCHECK checks every d_x and d_b against central differences,
   accumulation into the shadows, and that x, b, y, d_y are untouched; then
   d_b is checked against the exact column sums.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bias_add (int n, int m, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] + b[j];
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *b = tg_alloc (m), *y = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (b, m, 2, -1, 1);
  TG_GRADCHECK (bias_add, &n, &m, x, b, y);

  /* The column sums, exactly: with d_y = c, d_b[j] = sum_i c[i*m+j].  */
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_b = tg_alloc (m);
  tg_fill (c, nm, 3, -1, 1);
  bias_add (n, m, x, b, y);
  bias_add_grad (n, m, x, b, y, d_x, d_b, c);
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += c[i * m + j];
      CHECK_NEAR_AT (d_b[j], s, 1e-12, 1e-14, j);
    }
  return tg_exit ();
}
