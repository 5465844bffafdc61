/* { dg-do run } */
/* A sum of squares down axis 0 (over the rows) of an n x m matrix, 5 x 3
   at run time, the reduced axis in the inner loop:
   for (j < m) { double s = 0; for (i < n) s += x[i*m+j] * x[i*m+j];
   y[j] = s; }.  d_x[i*m+j] += 2 d_y[j] x[i*m+j].  Checks every d_x
   against central differences, accumulation into a pre-filled d_x, and
   that x, y, d_y are untouched.  Kept with its own central differences, not
   tg_gradcheck's, so that the descriptor path is itself checked: a
   reduction.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sumsq_axis0 (int n, int m, const double *x, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += x[i * m + j] * x[i * m + j];
      y[j] = s;
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
  sumsq_axis0 (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (m), *c = tg_alloc (m);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (c, m, 2, -1, 1);
  tg_fill (d_x, nm, 3, -1, 1);

  sumsq_axis0 (n, m, x, y);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, m), *d_y = tg_dup (c, m);
  double *pre = tg_dup (d_x, nm);

  sumsq_axis0_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, m * sizeof *y);
  CHECK_SAME (d_y, c, m * sizeof *d_y);
  tg_sub (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
