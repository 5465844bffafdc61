/* { dg-do run } */
/* relu written as if/else with a store in each arm, over a 2-D
   flat-indexed nest (n x m at run time):
   if (x > 0) y = 2 x; else y = 0.5 x;  (a leaky relu with slope 2 and
   0.5).  d_x += d_y * (x > 0 ? 2 : 0.5).  Away from the kink checks every
   d_x against central differences, accumulation into a pre-filled d_x,
   and that x, y, d_y are untouched; then, exactly, the slope of the else
   arm (the chosen one) at x = 0.0.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky_if (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	if (x[i * m + j] > 0)
	  y[i * m + j] = 2.0 * x[i * m + j];
	else
	  y[i * m + j] = 0.5 * x[i * m + j];
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
  leaky_if (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 3, m = 5, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm), *c = tg_alloc (nm);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  tg_fill_away (x, nm, 1, -2, 2, 0.0, 1e-3);
  tg_fill (c, nm, 2, -1, 1);
  tg_fill (d_x, nm, 3, -1, 1);

  leaky_if (n, m, x, y);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm), *pre = tg_dup (d_x, nm);

  leaky_if_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  tg_sub (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g, TG_RTOL, TG_ATOL);

  /* At the kink the condition is false: the else arm's slope.  */
  x[6] = 0.0;
  leaky_if (n, m, x, y);
  memcpy (d_x, pre, nm * sizeof *d_x);
  leaky_if_grad (n, m, x, y, d_x, d_y);
  CHECK (d_x[6] == pre[6] + 0.5 * c[6]);
  return tg_exit ();
}
