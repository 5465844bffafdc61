/* { dg-do run } */
/* A kernel whose body is a call, at top level, to another differentiable
   kernel of the same translation unit with an offset pointer argument,
   n = 7 at run time, x of 2n elements:
     g (n, x, y): y[i] = x[i] sin (x[i]);
     f (n, x, y): g (n, x + n, y).
   d_x[n + i] += d_y[i] (sin x[n+i] + x[n+i] cos x[n+i]); d_x[0..n), not
   read, keeps its pre-fill exactly.  Checks every d_x against central
   differences, the unread half exactly, accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
g (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * sin (x[i]);
}

__attribute__ ((differentiable))
void
f (int n, const double *x, double *y)
{
  g (n, x + n, y);
}

struct ctx
{
  int n;
  double *x, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  f (k->n, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7, nx = 2 * n;
  double *x = tg_alloc (nx), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (nx);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, nx, 3, -1, 1);

  f (n, x, y);
  double *x0 = tg_dup (x, nx), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, nx);

  f_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  CHECK_SAME (d_x, pre_x, n * sizeof *d_x);
  double *g_x = tg_alloc (nx);
  tg_sub (g_x, d_x, pre_x, nx);
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, nx, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
