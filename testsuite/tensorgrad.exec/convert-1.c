/* { dg-do run } */
/* float <-> double conversions, 1-D: a float input x and a double input w
   give a double output y[i] = (double) x[i] * w[i] and a float output
   z[i] = (float) (w[i] * w[i]) + x[i].  Each shadow has its parameter's
   type: float *d_x, double *d_w, double *d_y, float *d_z.
   d_x += (float) (d_y w) + d_z; d_w += d_y x + 2 w d_z.  TG_GRADCHECK
   checks every d_x and d_w against central differences (in float precision,
   tg_gradcheck's float step and tolerances: the float output rounds),
   accumulation into the shadows, and that x, w, y, z, d_y, d_z are
   untouched; then d_w against its formula to double precision.  */

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

int
main (void)
{
  int n = 7;
  float *x = tg_alloc_f (n), *z = tg_alloc_f (n);
  double *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_f (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  TG_GRADCHECK (mixed, &n, x, w, y, z);

  /* The double path alone is exact to double precision.  */
  double *cy = tg_alloc (n), *d_w = tg_alloc (n);
  float *cz = tg_alloc_f (n), *d_x = tg_alloc_f (n);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill_f (cz, n, 4, -1, 1);
  mixed (n, x, w, y, z);
  mixed_grad (n, x, w, y, z, d_x, d_w, cy, cz);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (d_w[i], cy[i] * x[i] + 2 * w[i] * cz[i], 1e-6, 1e-7, i);
  return tg_exit ();
}
