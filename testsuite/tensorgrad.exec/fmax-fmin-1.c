/* { dg-do run } */
/* fmax and fmin of two inputs, 1-D of run-time length:
   y[i] = fmax (x[i], w[i]), z[i] = fmin (x[i], w[i]).  The adjoint goes to
   the chosen operand.  Away from ties (|x - w| >= 1e-3) TG_GRADCHECK checks
   every d_x and d_w against central differences, accumulation into the
   shadows, and that x, w, y, z, d_y, d_z are untouched.  Then the
   documented tie convention, exactly: where x[i] == w[i] both fmax and fmin
   send the adjoint to the first operand, so d_x[i] gets d_y[i] + d_z[i] and
   d_w[i] nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
maxmin (int n, const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = fmax (x[i], w[i]);
      z[i] = fmin (x[i], w[i]);
    }
}

int
main (void)
{
  int n = 11;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *z = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  for (int i = 0; i < n; i++)
    if (fabs (x[i] - w[i]) < 1e-3)
      w[i] += 0.25;
  TG_GRADCHECK (maxmin, &n, x, w, y, z);

  /* Ties.  */
  double *cy = tg_alloc (n), *cz = tg_alloc (n);
  double *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  double *pre_x = tg_alloc (n), *pre_w = tg_alloc (n);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (cz, n, 4, -1, 1);
  tg_fill (pre_x, n, 5, -1, 1);
  tg_fill (pre_w, n, 6, -1, 1);
  memcpy (d_x, pre_x, n * sizeof *d_x);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  w[2] = x[2];
  w[5] = x[5];
  maxmin (n, x, w, y, z);
  maxmin_grad (n, x, w, y, z, d_x, d_w, cy, cz);
  for (int i = 0; i < n; i++)
    {
      double ex = 0, ew = 0;
      if (i == 2 || i == 5)
	{
	  CHECK_AT (d_w[i] == pre_w[i], i);
	  ex = cy[i] + cz[i];
	}
      else
	{
	  ex = (x[i] > w[i] ? cy[i] : cz[i]);
	  ew = (x[i] > w[i] ? cz[i] : cy[i]);
	}
      CHECK_NEAR_AT (d_x[i] - pre_x[i], ex, 1e-12, 1e-14, i);
      CHECK_NEAR_AT (d_w[i] - pre_w[i], ew, 1e-12, 1e-14, i);
    }
  return tg_exit ();
}
