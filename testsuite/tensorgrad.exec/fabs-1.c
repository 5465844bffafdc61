/* { dg-do run } */
/* fabs over a 2-D flat-indexed nest (n x m at run time):
   y[i*m+j] = fabs (x[i*m+j]) * w[i*m+j]; d_x += d_y w sign (x),
   d_w += d_y |x|.  Away from the kink (no |x| below 1e-3) TG_GRADCHECK
   checks every d_x and d_w against central differences, accumulation into
   the shadows, and that x, w, y, d_y are untouched.  Then the documented
   convention at the kink, exactly: d|x|/dx = 0 at x = +0.0 and at x = -0.0,
   so d_x gets nothing there, while d_w still gets d_y * |x| = 0 and the
   other elements d_y w sign x.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
absmul (int n, int m, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = fabs (x[i * m + j]) * w[i * m + j];
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *w = tg_alloc (nm), *y = tg_alloc (nm);
  tg_fill_away (x, nm, 1, -2, 2, 0.0, 1e-3);
  tg_fill (w, nm, 2, -2, 2);
  TG_GRADCHECK (absmul, &n, &m, x, w, y);

  /* At the kink.  */
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_w = tg_alloc (nm);
  double *pre_x = tg_alloc (nm), *pre_w = tg_alloc (nm);
  tg_fill (c, nm, 3, -1, 1);
  tg_fill (pre_x, nm, 4, -1, 1);
  tg_fill (pre_w, nm, 5, -1, 1);
  memcpy (d_x, pre_x, nm * sizeof *d_x);
  memcpy (d_w, pre_w, nm * sizeof *d_w);
  x[4] = 0.0;
  x[7] = -0.0;
  absmul (n, m, x, w, y);
  absmul_grad (n, m, x, w, y, d_x, d_w, c);
  for (int i = 0; i < nm; i++)
    {
      if (i == 4 || i == 7)
	{
	  CHECK_AT (d_x[i] == pre_x[i], i);
	  CHECK_AT (d_w[i] == pre_w[i], i);
	}
      else
	{
	  double s = x[i] > 0 ? 1.0 : -1.0;
	  CHECK_NEAR_AT (d_x[i] - pre_x[i], c[i] * w[i] * s, 1e-12, 1e-14, i);
	  CHECK_NEAR_AT (d_w[i] - pre_w[i], c[i] * fabs (x[i]), 1e-12, 1e-14,
			 i);
	}
    }
  return tg_exit ();
}
