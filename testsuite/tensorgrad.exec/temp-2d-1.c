/* { dg-do run } */
/* A 2-D VLA temporary t[n][m] written by one nest and read by a later
   nest in the other loop order (a column reduction), n x m = 5 x 3 at run
   time:
     t[i][j] = x[i*m+j] * w[j];   y[j] = sum_i tanh (t[i][j]).
   d_x[i*m+j] += d_y[j] (1 - tanh^2 t[i][j]) w[j];
   d_w[j] += sum_i d_y[j] (1 - tanh^2 t[i][j]) x[i*m+j].
   TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_2d (int n, int m, const double *x, const double *w, double *y)
{
  double t[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[i][j] = x[i * m + j] * w[j];
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += tanh (t[i][j]);
      y[j] = s;
    }
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *w = tg_alloc (m), *y = tg_alloc (m);
  tg_fill (x, n * m, 1, -1.5, 1.5);
  tg_fill (w, m, 2, -1.5, 1.5);
  TG_GRADCHECK (temp_2d, &n, &m, x, w, y);
  return tg_exit ();
}
