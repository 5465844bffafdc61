/* { dg-do run } */
/* Two loop nests in sequence writing different outputs and both reading
   the input x: a 1-D nest y[i] = 2 tanh (x[i]) and a 2-D flat-indexed
   nest z[i*m+j] = x[i] * w[i*m+j] (x broadcast along j), n x m at run
   time.  d_x[i] += 2 d_y (1 - tanh^2 x) + sum_j d_z w; d_w += d_z x[i].
   Checks every d_x and d_w against central differences, accumulation
   into pre-filled shadows, and that x, w, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
two_nests (int n, int m, const double *x, const double *w, double *y,
	   double *z)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * tanh (x[i]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      z[i * m + j] = x[i] * w[i * m + j];
}

struct ctx
{
  int n, m;
  double *x, *w, *y, *z, *cy, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  two_nests (k->n, k->m, k->x, k->w, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n) + tg_dot (k->cz, k->z, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (n), *w = tg_alloc (nm), *y = tg_alloc (n);
  double *z = tg_alloc (nm), *cy = tg_alloc (n), *cz = tg_alloc (nm);
  double *d_x = tg_alloc (n), *d_w = tg_alloc (nm);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, nm, 2, -2, 2);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (cz, nm, 4, -1, 1);
  tg_fill (d_x, n, 5, -1, 1);
  tg_fill (d_w, nm, 6, -1, 1);

  two_nests (n, m, x, w, y, z);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, nm);
  double *y0 = tg_dup (y, n), *z0 = tg_dup (z, nm);
  double *d_y = tg_dup (cy, n), *d_z = tg_dup (cz, nm);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, nm);

  two_nests_grad (n, m, x, w, y, z, d_x, d_w, d_y, d_z);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, nm * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, nm * sizeof *z);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  CHECK_SAME (d_z, cz, nm * sizeof *d_z);
  double *g_x = tg_alloc (n), *g_w = tg_alloc (nm);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, nm);
  struct ctx k = { n, m, x, w, y, z, cy, cz };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, nm, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
