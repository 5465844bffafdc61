/* { dg-do run } */
/* Elementwise tanh over a 1-D double array of runtime length n:
   y[i] = tanh (x[i]), so d_x[i] += d_y[i] * (1 - y[i]^2).
   Checks every d_x[i] against central differences of L = sum c[i] y[i],
   that the gradient is added to a pre-filled d_x, and that x, y and d_y
   are untouched by act_tanh_grad.  Kept with its own central differences,
   not tg_gradcheck's, so that the descriptor path is itself checked: the
   elementwise case.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
act_tanh (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  act_tanh (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill (x, n, 1, -2.5, 2.5);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  act_tanh (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, n);

  act_tanh_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);
  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
