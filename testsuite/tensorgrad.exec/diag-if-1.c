/* { dg-do run } */
/* if/else on loop counters (i == j) in a 2-D flat-indexed nest, n x n at
   run time: the diagonal is 3 x, the rest x * x.
   d_x += d_y * (i == j ? 3 : 2 x).  Checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
diag_scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
	if (i == j)
	  y[i * n + j] = 3.0 * x[i * n + j];
	else
	  y[i * n + j] = x[i * n + j] * x[i * n + j];
      }
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  diag_scale (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n * k->n);
}

int
main (void)
{
  int n = 5, nn = n * n;
  double *x = tg_alloc (nn), *y = tg_alloc (nn), *c = tg_alloc (nn);
  double *d_x = tg_alloc (nn), *g = tg_alloc (nn);
  tg_fill (x, nn, 1, -2, 2);
  tg_fill (c, nn, 2, -1, 1);
  tg_fill (d_x, nn, 3, -1, 1);

  diag_scale (n, x, y);
  double *x0 = tg_dup (x, nn), *y0 = tg_dup (y, nn);
  double *d_y = tg_dup (c, nn), *pre = tg_dup (d_x, nn);

  diag_scale_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nn * sizeof *x);
  CHECK_SAME (y, y0, nn * sizeof *y);
  CHECK_SAME (d_y, c, nn * sizeof *d_y);
  tg_sub (g, d_x, pre, nn);
  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, nn, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
