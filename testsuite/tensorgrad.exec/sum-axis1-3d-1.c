/* { dg-do run } */
/* A sum along axis 1 of an n x m x p tensor passed as VLA parameters,
   5 x 3 x 4 at run time:
   for (i < n) for (k < p) { double s = 0;
   for (j < m) s += x[i][j][k]; y[i][k] = s; },
   gradient void f_grad (int n, int m, int p, const double x[n][m][p],
   double y[n][p], double d_x[n][m][p], double d_y[n][p]).
   d_x[i][j][k] += d_y[i][k].  TG_GRADCHECK checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sum3_axis1 (int n, int m, int p, const double x[n][m][p], double y[n][p])
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < p; k++)
      {
	double s = 0;
	for (int j = 0; j < m; j++)
	  s += x[i][j][k];
	y[i][k] = s;
      }
}

int
main (void)
{
  int n = 5, m = 3, p = 4;
  double *x = tg_alloc (n * m * p), *y = tg_alloc (n * p);
  tg_fill (x, n * m * p, 1, -2, 2);
  TG_GRADCHECK (sum3_axis1, &n, &m, &p, x, y);
  return tg_exit ();
}
