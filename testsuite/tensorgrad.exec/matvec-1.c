/* { dg-do run } */
/* Matrix-vector product y = A x, A n x m (5 x 3 at run time):
   for (i < n) { double acc = 0; for (j < m) acc += a[i*m+j] * x[j];
   y[i] = acc; }.  d_a[i*m+j] += d_y[i] x[j];
   d_x[j] += sum_i d_y[i] a[i*m+j].  TG_GRADCHECK checks every d_a and d_x
   against central differences, accumulation into pre-filled shadows, and
   that a, x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
matvec (int n, int m, const double *a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double acc = 0;
      for (int j = 0; j < m; j++)
	acc += a[i * m + j] * x[j];
      y[i] = acc;
    }
}

int
main (void)
{
  int n = 5, m = 3;
  double *a = tg_alloc (n * m), *x = tg_alloc (m), *y = tg_alloc (n);
  tg_fill (a, n * m, 1, -2, 2);
  tg_fill (x, m, 2, -2, 2);
  TG_GRADCHECK (matvec, &n, &m, a, x, y);
  return tg_exit ();
}
