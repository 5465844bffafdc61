/* { dg-do run } */
/* float <-> double conversions, 1-D: a float input x and a double input w
   give a double output y[i] = (double) x[i] * w[i] and a float output
   z[i] = (float) (w[i] * w[i]) + x[i].  Each shadow has its parameter's
   type: float *d_x, double *d_w, double *d_y, float *d_z.
   d_x += (float) (d_y w) + d_z; d_w += d_y x + 2 w d_z.  Checks every d_x
   and d_w against central differences (float tolerances and a float-sized
   step: the float output rounds), accumulation into pre-filled shadows,
   and that x, w, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mixed (int n, const float *x, const double *w, double *y, float *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = (double) x[i] * w[i];
      z[i] = (float) (w[i] * w[i]) + x[i];
    }
}

struct ctx
{
  int n;
  float *x, *z, *cz;
  double *w, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  mixed (k->n, k->x, k->w, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n) + tg_dot_f (k->cz, k->z, k->n);
}

int
main (void)
{
  int n = 7;
  float *x = tg_alloc_f (n), *z = tg_alloc_f (n), *cz = tg_alloc_f (n);
  float *d_x = tg_alloc_f (n);
  double *w = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_w = tg_alloc (n);
  tg_fill_f (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill_f (cz, n, 4, -1, 1);
  tg_fill_f (d_x, n, 5, -1, 1);
  tg_fill (d_w, n, 6, -1, 1);

  mixed (n, x, w, y, z);
  float *x0 = tg_dup_f (x, n), *z0 = tg_dup_f (z, n);
  double *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (cy, n);
  float *d_z = tg_dup_f (cz, n);
  float *pre_x = tg_dup_f (d_x, n);
  double *pre_w = tg_dup (d_w, n);

  mixed_grad (n, x, w, y, z, d_x, d_w, d_y, d_z);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  CHECK_SAME (d_z, cz, n * sizeof *d_z);
  float *g_x = tg_alloc_f (n);
  double *g_w = tg_alloc (n);
  tg_sub_f (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, z, cz, w, y, cy };
  tg_fd_check_f ("x", x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_h ("w", w, n, loss, &k, g_w, 3e-3, TG_RTOL_F, TG_ATOL_F);
  /* The double path alone is exact to double precision.  */
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g_w[i], cy[i] * x[i] + 2 * w[i] * cz[i], 1e-6, 1e-7, i);
  return tg_exit ();
}
