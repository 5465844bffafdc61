/* { dg-do run } */
/* One loop writing three outputs from two inputs, 1-D:
   y[i] = x[i] * w[i], z[i] = x[i] / w[i], u[i] = x[i] - w[i], w in
   [0.5, 2].  d_x += d_y w + d_z / w + d_u; d_w += d_y x - d_z x / w^2 -
   d_u.  Checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that the inputs, the outputs
   and the output shadows are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mul_div_sub (int n, const double *x, const double *w, double *y, double *z,
	     double *u)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] * w[i];
      z[i] = x[i] / w[i];
      u[i] = x[i] - w[i];
    }
}

struct ctx
{
  int n;
  double *x, *w, *y, *z, *u, *cy, *cz, *cu;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  mul_div_sub (k->n, k->x, k->w, k->y, k->z, k->u);
  return (tg_dot (k->cy, k->y, k->n) + tg_dot (k->cz, k->z, k->n)
	  + tg_dot (k->cu, k->u, k->n));
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *z = tg_alloc (n), *u = tg_alloc (n), *cy = tg_alloc (n);
  double *cz = tg_alloc (n), *cu = tg_alloc (n);
  double *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, 0.5, 2);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (cz, n, 4, -1, 1);
  tg_fill (cu, n, 5, -1, 1);
  tg_fill (d_x, n, 6, -1, 1);
  tg_fill (d_w, n, 7, -1, 1);

  mul_div_sub (n, x, w, y, z, u);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *z0 = tg_dup (z, n), *u0 = tg_dup (u, n);
  double *d_y = tg_dup (cy, n), *d_z = tg_dup (cz, n), *d_u = tg_dup (cu, n);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, n);

  mul_div_sub_grad (n, x, w, y, z, u, d_x, d_w, d_y, d_z, d_u);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (u, u0, n * sizeof *u);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  CHECK_SAME (d_z, cz, n * sizeof *d_z);
  CHECK_SAME (d_u, cu, n * sizeof *d_u);
  double *g_x = tg_alloc (n), *g_w = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, w, y, z, u, cy, cz, cu };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, n, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
