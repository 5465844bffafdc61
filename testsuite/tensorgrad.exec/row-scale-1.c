/* { dg-do run } */
/* A per-row scale broadcast along columns, 2-D flat-indexed, n x m at run
   time: y[i*m+j] = s[i] * x[i*m+j] - x[i*m+j] / s[i], s in [0.5, 2].
   d_x += d_y (s - 1/s); d_s[i] += sum_j d_y x (1 + 1/s^2).  TG_GRADCHECK
   checks every d_x and d_s against central differences, accumulation into
   pre-filled shadows, and that x, s, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
row_scale (int n, int m, const double *s, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = s[i] * x[i * m + j] - x[i * m + j] / s[i];
}

int
main (void)
{
  int n = 5, m = 3;
  double *s = tg_alloc (n), *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (s, n, 1, 0.5, 2);
  tg_fill (x, n * m, 2, -2, 2);
  TG_GRADCHECK (row_scale, &n, &m, s, x, y);
  return tg_exit ();
}
