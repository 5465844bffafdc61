/* { dg-do run } */
/* A fixed-size 2-D temporary double t[8][8] (n, m <= 8) holding an outer
   product, read by a later nest through its transpose, n x m = 5 x 3 at
   run time:
     t[i][j] = a[i] * b[j];   y[j*n + i] = sin (t[i][j]) + t[i][j].
   d_a[i] += sum_j d_y[j*n+i] (cos t + 1) b[j];
   d_b[j] += sum_i d_y[j*n+i] (cos t + 1) a[i].
   TG_GRADCHECK checks every d_a and d_b against central differences,
   accumulation into pre-filled shadows, and that a, b, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_2d_fixed (int n, int m, const double *a, const double *b, double *y)
{
  double t[8][8];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[i][j] = a[i] * b[j];
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      y[j * n + i] = sin (t[i][j]) + t[i][j];
}

int
main (void)
{
  int n = 5, m = 3;
  double *a = tg_alloc (n), *b = tg_alloc (m), *y = tg_alloc (n * m);
  tg_fill (a, n, 1, -2, 2);
  tg_fill (b, m, 2, -2, 2);
  TG_GRADCHECK (temp_2d_fixed, &n, &m, a, b, y);
  return tg_exit ();
}
