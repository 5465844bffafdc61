/* { dg-do run } */
/* { dg-options "-g" } */
/* An operator table with debug information: the static kernel's gradient
   is referenced by the table before the plugin makes it, so GCC wrote
   early debug information for it, and at -O2 and -O3 the calls through
   the constant table fold to direct calls that may inline it.
   y[i] = x[i] * exp (x[i]);  d_x += d_y (1 + x) exp (x).  Checks every
   d_x against central differences of L = sum c[k] y[k] through the table,
   accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  Checked by hand: the calls through the operator table are
   what is tested.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static void
x_exp (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * exp (x[i]);
}

static const struct
{
  void (*f) (int, const double *, double *);
  void (*g) (int, const double *, double *, double *, double *);
} ops[] = { { x_exp, x_exp_grad } };

enum { N = 5 };

struct ctx
{
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  ops[0].f (N, k->x, k->y);
  return tg_dot (k->c, k->y, N);
}

int
main (void)
{
  double *x = tg_alloc (N), *y = tg_alloc (N), *c = tg_alloc (N);
  double *d_x = tg_alloc (N), *g_x = tg_alloc (N);
  tg_fill (x, N, 1, -1.5, 1.5);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (d_x, N, 3, -1, 1);

  ops[0].f (N, x, y);
  double *x0 = tg_dup (x, N), *y0 = tg_dup (y, N), *d_y = tg_dup (c, N);
  double *pre_x = tg_dup (d_x, N);

  ops[0].g (N, x, y, d_x, d_y);

  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (y, y0, N * sizeof *y);
  CHECK_SAME (d_y, c, N * sizeof *d_y);
  tg_sub (g_x, d_x, pre_x, N);
  struct ctx k = { x, y, c };
  tg_fd_check ("x", x, N, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
