/* { dg-do run } */
/* A multiplicative recurrence through an output, the cumulative product,
   n = 7 at run time, x kept away from 0:
     y[0] = x[0];  y[i] = y[i-1] * x[i]  (0 < i < n).
   With g_i the adjoint of y[i] including later steps, backwards:
     g_i = d_y[i] + g_{i+1} x[i+1];
     d_x[i] += g_i y[i-1] (i > 0), d_x[0] += g_0.
   Checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cumprod (int n, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * x[i];
}

struct ctx
{
  int n;
  double *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  cumprod (k->n, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill_away (x, n, 1, -1.8, 1.8, 0, 0.3);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  cumprod (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  cumprod_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
