/* { dg-do run } */
/* Strided and offset affine reads of one input, 1-D: x holds 2n values,
   y[i] = x[2*i+1] * x[2*i+1] - 3 * x[2*i].  d_x[2i+1] += 2 d_y x[2i+1];
   d_x[2i] += -3 d_y.  Checks every d_x against central differences,
   accumulation into a pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
pairs (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[2 * i + 1] * x[2 * i + 1] - 3 * x[2 * i];
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
  pairs (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (2 * n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (2 * n), *g = tg_alloc (2 * n);
  tg_fill (x, 2 * n, 1, -2, 2);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, 2 * n, 3, -1, 1);

  pairs (n, x, y);
  double *x0 = tg_dup (x, 2 * n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, 2 * n);

  pairs_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, 2 * n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, 2 * n);
  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, 2 * n, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
