/* { dg-do run } */
/* pow with both operands variable and with a constant exponent:
   y[i] = pow (x[i], p[i]), z[i] = pow (x[i], 2.5), base x in [0.5, 2]
   (positive), exponent p in [-2, 3].  d_x[i] += d_y[i] p[i] x[i]^(p[i]-1)
   + d_z[i] 2.5 x[i]^1.5, d_p[i] += d_y[i] y[i] log (x[i]).  Checks every
   d_x[i] and d_p[i] against central differences, accumulation into
   pre-filled shadows, and that x, p, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
powk (int n, const double *x, const double *p, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = pow (x[i], p[i]);
      z[i] = pow (x[i], 2.5);
    }
}

struct ctx
{
  int n;
  double *x, *p, *y, *z, *cy, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  powk (k->n, k->x, k->p, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n) + tg_dot (k->cz, k->z, k->n);
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *p = tg_alloc (n), *y = tg_alloc (n);
  double *z = tg_alloc (n), *cy = tg_alloc (n), *cz = tg_alloc (n);
  double *d_x = tg_alloc (n), *d_p = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 2.0);
  tg_fill (p, n, 2, -2.0, 3.0);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (cz, n, 4, -1, 1);
  tg_fill (d_x, n, 5, -1, 1);
  tg_fill (d_p, n, 6, -1, 1);

  powk (n, x, p, y, z);
  double *x0 = tg_dup (x, n), *p0 = tg_dup (p, n);
  double *y0 = tg_dup (y, n), *z0 = tg_dup (z, n);
  double *d_y = tg_dup (cy, n), *d_z = tg_dup (cz, n);
  double *pre_x = tg_dup (d_x, n), *pre_p = tg_dup (d_p, n);

  powk_grad (n, x, p, y, z, d_x, d_p, d_y, d_z);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (p, p0, n * sizeof *p);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  CHECK_SAME (d_z, cz, n * sizeof *d_z);
  double *g_x = tg_alloc (n), *g_p = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_p, d_p, pre_p, n);
  struct ctx k = { n, x, p, y, z, cy, cz };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("p", p, n, loss, &k, g_p, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
