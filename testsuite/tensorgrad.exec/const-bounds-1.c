/* { dg-do run } */
/* Constant loop bounds, 2-D flat-indexed 4 x 5 and a 1-D nest of 5 in
   sequence: y[i*5+j] = log (x[i*5+j]) * w[j], then z[j] = w[j] * w[j] -
   sqrt (x[j]) (x in [0.5, 2]).  d_x[i*5+j] += d_y w[j] / x (+ for i = 0:
   -d_z[j] / (2 sqrt x[j])); d_w[j] += sum_i d_y log x + 2 w[j] d_z[j].
   Checks every d_x and d_w against central differences, accumulation
   into pre-filled shadows, and that x, w, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
fixed_shape (const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      y[i * 5 + j] = log (x[i * 5 + j]) * w[j];
  for (int j = 0; j < 5; j++)
    z[j] = w[j] * w[j] - sqrt (x[j]);
}

struct ctx
{
  double *x, *w, *y, *z, *cy, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  fixed_shape (k->x, k->w, k->y, k->z);
  return tg_dot (k->cy, k->y, 20) + tg_dot (k->cz, k->z, 5);
}

int
main (void)
{
  double x[20], w[5], y[20], z[5], cy[20], cz[5], d_x[20], d_w[5];
  double g_x[20], g_w[5];
  tg_fill (x, 20, 1, 0.5, 2);
  tg_fill (w, 5, 2, -2, 2);
  tg_fill (cy, 20, 3, -1, 1);
  tg_fill (cz, 5, 4, -1, 1);
  tg_fill (d_x, 20, 5, -1, 1);
  tg_fill (d_w, 5, 6, -1, 1);

  fixed_shape (x, w, y, z);
  double *x0 = tg_dup (x, 20), *w0 = tg_dup (w, 5), *y0 = tg_dup (y, 20);
  double *z0 = tg_dup (z, 5), *d_y = tg_dup (cy, 20), *d_z = tg_dup (cz, 5);
  double *pre_x = tg_dup (d_x, 20), *pre_w = tg_dup (d_w, 5);

  fixed_shape_grad (x, w, y, z, d_x, d_w, d_y, d_z);

  CHECK_SAME (x, x0, sizeof x);
  CHECK_SAME (w, w0, sizeof w);
  CHECK_SAME (y, y0, sizeof y);
  CHECK_SAME (z, z0, sizeof z);
  CHECK_SAME (d_y, cy, sizeof cy);
  CHECK_SAME (d_z, cz, sizeof cz);
  tg_sub (g_x, d_x, pre_x, 20);
  tg_sub (g_w, d_w, pre_w, 5);
  struct ctx k = { x, w, y, z, cy, cz };
  tg_fd_check ("x", x, 20, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, 5, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
