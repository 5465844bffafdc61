/* { dg-do run } */
/* A VLA temporary t[n+1] read at a shifted index by a later nest, n = 7
   at run time, x of n + 1 elements:
     t[i] = x[i] * x[i]  (i <= n);   y[i] = t[i+1] * exp (t[i])  (i < n).
   d_t[i] = d_y[i] t[i+1] exp (t[i]) + d_y[i-1] exp (t[i-1]) (terms whose
   index is out of range vanish); d_x[i] += 2 x[i] d_t[i].  Checks every
   d_x (the first and last see one term each) against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_shift (int n, const double *x, double *y)
{
  double t[n + 1];
  for (int i = 0; i < n + 1; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i + 1] * exp (t[i]);
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
  temp_shift (k->n, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7, nx = n + 1;
  double *x = tg_alloc (nx), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (nx);
  tg_fill (x, nx, 1, -1, 1);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, nx, 3, -1, 1);

  temp_shift (n, x, y);
  double *x0 = tg_dup (x, nx), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, nx);

  temp_shift_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (nx);
  tg_sub (g_x, d_x, pre_x, nx);
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, nx, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
