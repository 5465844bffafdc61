/* { dg-do run } */
/* Bias broadcast over rows through VLA parameters, n x m at run time:
   void f (int n, int m, const double x[n][m], const double b[m],
	   double y[n][m]);  y[i][j] = x[i][j] + b[j].
   Shadows are VLAs too: double d_x[n][m], double d_b[m], double d_y[n][m].
   d_b[j] += sum_i d_y[i][j].  TG_GRADCHECK checks every d_x and d_b against
   central differences, accumulation into pre-filled shadows, and that x, b,
   y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bias_vla (int n, int m, const double x[n][m], const double b[m],
	  double y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i][j] = x[i][j] + b[j];
}

int
main (void)
{
  int n = 3, m = 7, nm = n * m;
  double *x = tg_alloc (nm), *b = tg_alloc (m), *y = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (b, m, 2, -1, 1);
  TG_GRADCHECK (bias_vla, &n, &m, x, b, y);
  return tg_exit ();
}
