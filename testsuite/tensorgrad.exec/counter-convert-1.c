/* { dg-do run } */
/* int -> floating conversion of loop counters inside the expression, 2-D
   flat-indexed, n x m at run time:
   y[i*m+j] = x[i*m+j] * (double) (i + 1) + 0.25 * j, and in float
   z[i*m+j] = (float) j * x[i*m+j] - (float) i (float output from the
   same double input through a conversion).
   d_x += d_y (i + 1) + (double) (d_z j).  TG_GRADCHECK checks every d_x
   against central differences (in float precision, as z is float: a
   float-sized step), accumulation into d_x, and that x, y, z, d_y, d_z are
   untouched; then d_x against the exact formula.  */

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

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm);
  float *z = tg_alloc_f (nm);
  tg_fill (x, nm, 1, -2, 2);
  TG_GRADCHECK (ramp, &n, &m, x, y, z);

  /* The exact formula.  */
  double *cy = tg_alloc (nm), *d_x = tg_alloc (nm);
  float *cz = tg_alloc_f (nm);
  tg_fill (cy, nm, 2, -1, 1);
  tg_fill_f (cz, nm, 3, -1, 1);
  ramp (n, m, x, y, z);
  ramp_grad (n, m, x, y, z, d_x, cy, cz);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      CHECK_NEAR_AT (d_x[i * m + j],
		     cy[i * m + j] * (i + 1) + (double) cz[i * m + j] * j,
		     1e-6, 1e-7, i * m + j);
  return tg_exit ();
}
