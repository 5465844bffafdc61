/* { dg-do run } */
/* long loop counters and an index temporary: k = i * m + j computed in a
   local, then y[k] = x[k] * x[k] * b[j], n x m at run time.
   d_x[k] += 2 d_y x b[j]; d_b[j] += sum_i d_y x^2.  TG_GRADCHECK checks
   every d_x and d_b against central differences, accumulation into
   pre-filled shadows, and that x, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sq_scale (long n, long m, const double *x, const double *b, double *y)
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      {
	long k = i * m + j;
	y[k] = x[k] * x[k] * b[j];
      }
}

int
main (void)
{
  long n = 3, m = 5;
  double *x = tg_alloc (n * m), *b = tg_alloc (m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (b, m, 2, -2, 2);
  TG_GRADCHECK (sq_scale, &n, &m, x, b, y);
  return tg_exit ();
}
