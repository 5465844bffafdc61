/* { dg-do run } */
/* Inner loops of one outer loop that pass a row through an output: the
   first writes row t of a, the second reads all of row t (a sum) and its
   own element, and a third reads row t - 1 too.  Each reads only what
   the earlier loop wrote in this iteration of the outer loop or before,
   so running each inner loop to its end before the next (as the gradient
   does) changes nothing.  With r[t] = sum_j a[t][j], the adjoint of
   a[t][i] is ab = d_a + d_y[t][i] r[t] + sum_k d_y[t][k] a[t][k]
   + (t > 0 ? d_z[t][i] a[t-1][i] : d_z[0][i])
   + (t < T - 1 ? d_z[t+1][i] a[t+1][i] : 0), and d_x += ab cos x.
   TG_GRADCHECK checks d_x against central differences, accumulation into
   d_x, and that x, a, y, z and their shadows are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rows (int T, int n, const double *x, double *a, double *y, double *z)
{
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
	a[t * n + i] = sin (x[t * n + i]);
      for (int i = 0; i < n; i++)
	{
	  double s = 0;
	  for (int j = 0; j < n; j++)
	    s += a[t * n + j];
	  y[t * n + i] = s * a[t * n + i];
	}
      for (int i = 0; i < n; i++)
	z[t * n + i] = t > 0 ? a[(t - 1) * n + i] * a[t * n + i] : a[i];
    }
}

enum { T = 4, N = 3, S = T * N };

int
main (void)
{
  int t = T, n = N;
  double x[S], a[S] = { 0 }, y[S] = { 0 }, z[S] = { 0 };
  tg_fill (x, S, 1, -1.5, 1.5);
  TG_GRADCHECK (rows, &t, &n, x, a, y, z);
  return tg_exit ();
}
