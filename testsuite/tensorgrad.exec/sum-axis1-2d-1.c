/* { dg-do run } */
/* A sum of squares along axis 1 (over the columns) of an n x m matrix,
   5 x 3 at run time:
   for (i < n) { double s = 0; for (j < m) s += x[i*m+j] * x[i*m+j];
   y[i] = s; }.  d_x[i*m+j] += 2 d_y[i] x[i*m+j].  Checks every d_x
   against central differences, accumulation into a pre-filled d_x, and
   that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sumsq_axis1 (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += x[i * m + j] * x[i * m + j];
      y[i] = s;
    }
}

struct ctx
{
  int n, m;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  sumsq_axis1 (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, nm, 3, -1, 1);

  sumsq_axis1 (n, m, x, y);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, n), *d_y = tg_dup (c, n);
  double *pre = tg_dup (d_x, nm);

  sumsq_axis1_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
