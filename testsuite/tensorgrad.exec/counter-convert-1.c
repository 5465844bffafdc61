/* { dg-do run } */
/* int -> floating conversion of loop counters inside the expression, 2-D
   flat-indexed, n x m at run time:
   y[i*m+j] = x[i*m+j] * (double) (i + 1) + 0.25 * j, and in float
   z[i*m+j] = (float) j * x[i*m+j] - (float) i (float output from the
   same double input through a conversion).
   d_x += d_y (i + 1) + (double) (d_z j).  Checks every d_x against
   central differences (a float-sized step: z rounds to float) and the
   exact formula, accumulation into a pre-filled d_x, and that x, y, z,
   d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ramp (int n, int m, const double *x, double *y, float *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	y[i * m + j] = x[i * m + j] * (double) (i + 1) + 0.25 * j;
	z[i * m + j] = (float) j * (float) x[i * m + j] - (float) i;
      }
}

struct ctx
{
  int n, m;
  double *x, *y, *cy;
  float *z, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  ramp (k->n, k->m, k->x, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n * k->m) + tg_dot_f (k->cz, k->z, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm), *cy = tg_alloc (nm);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  float *z = tg_alloc_f (nm), *cz = tg_alloc_f (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (cy, nm, 2, -1, 1);
  tg_fill_f (cz, nm, 3, -1, 1);
  tg_fill (d_x, nm, 4, -1, 1);

  ramp (n, m, x, y, z);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, nm), *d_y = tg_dup (cy, nm);
  float *z0 = tg_dup_f (z, nm), *d_z = tg_dup_f (cz, nm);
  double *pre = tg_dup (d_x, nm);

  ramp_grad (n, m, x, y, z, d_x, d_y, d_z);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (z, z0, nm * sizeof *z);
  CHECK_SAME (d_y, cy, nm * sizeof *d_y);
  CHECK_SAME (d_z, cz, nm * sizeof *d_z);
  tg_sub (g, d_x, pre, nm);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      CHECK_NEAR_AT (g[i * m + j],
		     cy[i * m + j] * (i + 1) + (double) cz[i * m + j] * j,
		     1e-6, 1e-7, i * m + j);
  struct ctx k = { n, m, x, y, cy, z, cz };
  tg_fd_check_h ("x", x, nm, loss, &k, g, 3e-3, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
