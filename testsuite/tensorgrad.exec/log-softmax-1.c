/* { dg-do run } */
/* Row log-softmax in one kernel, n x m = 5 x 4 at run time:
   mx = max_j x[i*m+j] (fmax); s = sum_j exp (x - mx);
   y[i*m+j] = x[i*m+j] - mx - log (s).  With p = exp (y):
   d_x[i*m+j] += d_y[i*m+j] - p[i*m+j] sum_k d_y[i*m+k].  TG_GRADCHECK
   checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
log_softmax_rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
	mx = fmax (mx, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
	s += exp (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
	y[i * m + j] = x[i * m + j] - mx - log (s);
    }
}

int
main (void)
{
  int n = 5, m = 4;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  TG_GRADCHECK (log_softmax_rows, &n, &m, x, y);
  return tg_exit ();
}
