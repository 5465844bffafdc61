/* { dg-do run } */
/* A correct user prototype of the gradient written BEFORE the kernel (the
   plugin compares it with the gradient's signature and must accept it),
   with a by-value scalar and two outputs:
   y[i] = a * x[i] * x[i], z[i] = x[i] - a.  *d_a += sum (d_y x^2 - d_z);
   d_x += d_y 2 a x + d_z.  Checks d_a and every d_x against central
   differences, accumulation into pre-filled shadows, and that x, y, z,
   d_y, d_z are untouched.  Checked by hand: the call through the user's
   prototype is what is tested.  */

#include <math.h>
#include "tg-test.h"

void sq_shift_grad (int n, double a, const double *x, double *y, double *z,
		    double *d_a, double *d_x, double *d_y, double *d_z);

__attribute__ ((differentiable))
void
sq_shift (int n, double a, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = a * x[i] * x[i];
      z[i] = x[i] - a;
    }
}

struct ctx
{
  int n;
  double a;
  double *x, *y, *z, *cy, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  sq_shift (k->n, k->a, k->x, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n) + tg_dot (k->cz, k->z, k->n);
}

int
main (void)
{
  int n = 7;
  struct ctx k;
  k.n = n;
  k.a = 1.5;
  k.x = tg_alloc (n);
  k.y = tg_alloc (n);
  k.z = tg_alloc (n);
  k.cy = tg_alloc (n);
  k.cz = tg_alloc (n);
  tg_fill (k.x, n, 1, -2, 2);
  tg_fill (k.cy, n, 2, -1, 1);
  tg_fill (k.cz, n, 3, -1, 1);
  double *d_x = tg_alloc (n), *g_x = tg_alloc (n);
  tg_fill (d_x, n, 4, -1, 1);
  double d_a = 2.0, g_a;

  sq_shift (n, k.a, k.x, k.y, k.z);
  double *x0 = tg_dup (k.x, n), *y0 = tg_dup (k.y, n), *z0 = tg_dup (k.z, n);
  double *d_y = tg_dup (k.cy, n), *d_z = tg_dup (k.cz, n);
  double *pre = tg_dup (d_x, n);

  sq_shift_grad (n, k.a, k.x, k.y, k.z, &d_a, d_x, d_y, d_z);

  CHECK_SAME (k.x, x0, n * sizeof (double));
  CHECK_SAME (k.y, y0, n * sizeof (double));
  CHECK_SAME (k.z, z0, n * sizeof (double));
  CHECK_SAME (d_y, k.cy, n * sizeof (double));
  CHECK_SAME (d_z, k.cz, n * sizeof (double));
  g_a = d_a - 2.0;
  tg_sub (g_x, d_x, pre, n);
  tg_fd_check ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", k.x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
