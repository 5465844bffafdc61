/* { dg-do run } */
/* Inner loops of one outer loop that pass a row through an output: the
   first writes row t of a, the second reads all of row t (a sum) and its
   own element, and a third reads row t - 1 too.  Each reads only what
   the earlier loop wrote in this iteration of the outer loop or before,
   so running each inner loop to its end before the next (as the gradient
   does) changes nothing.  Checks d_x against central differences.  */

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

struct ctx
{
  double *x, *a, *y, *z, *ca, *cy, *cz;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  rows (T, N, k->x, k->a, k->y, k->z);
  return tg_dot (k->ca, k->a, S) + tg_dot (k->cy, k->y, S)
         + tg_dot (k->cz, k->z, S);
}

int
main (void)
{
  double x[S], a[S], y[S], z[S], ca[S], cy[S], cz[S], d_x[S] = { 0 };
  tg_fill (x, S, 1, -1.5, 1.5);
  tg_fill (ca, S, 2, -1, 1);
  tg_fill (cy, S, 3, -1, 1);
  tg_fill (cz, S, 4, -1, 1);
  rows (T, N, x, a, y, z);
  rows_grad (T, N, x, a, y, z, d_x, ca, cy, cz);
  struct ctx k = { x, a, y, z, ca, cy, cz };
  tg_fd_check ("x", x, S, loss, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
