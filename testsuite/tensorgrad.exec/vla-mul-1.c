/* { dg-do run } */
/* Elementwise product through VLA parameters, n x m at run time:
   void f (int n, int m, const double x[n][m], const double w[n][m],
	   double y[n][m]);  y[i][j] = x[i][j] * w[i][j].
   Shadows double d_x[n][m], d_w[n][m], d_y[n][m]; d_x += d_y w,
   d_w += d_y x.  TG_GRADCHECK checks every d_x and d_w against central
   differences, accumulation into pre-filled shadows, and that x, w, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
vla_mul (int n, int m, const double x[n][m], const double w[n][m],
	 double y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i][j] = x[i][j] * w[i][j];
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *w = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (w, n * m, 2, -2, 2);
  TG_GRADCHECK (vla_mul, &n, &m, x, w, y);
  return tg_exit ();
}
