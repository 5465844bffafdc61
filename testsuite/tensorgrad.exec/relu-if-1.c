/* { dg-do run } */
/* relu written as if/else with a store in each arm, over a 2-D
   flat-indexed nest (n x m at run time):
   if (x > 0) y = 2 x; else y = 0.5 x;  (a leaky relu with slope 2 and
   0.5).  d_x += d_y * (x > 0 ? 2 : 0.5).  Away from the kink TG_GRADCHECK
   checks every d_x against central differences, accumulation into d_x, and
   that x, y, d_y are untouched; then, exactly, the slope of the else arm
   (the chosen one) at x = 0.0.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky_if (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	if (x[i * m + j] > 0)
	  y[i * m + j] = 2.0 * x[i * m + j];
	else
	  y[i * m + j] = 0.5 * x[i * m + j];
      }
}

int
main (void)
{
  int n = 3, m = 5, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm);
  tg_fill_away (x, nm, 1, -2, 2, 0.0, 1e-3);
  TG_GRADCHECK (leaky_if, &n, &m, x, y);

  /* At the kink the condition is false: the else arm's slope.  */
  double *c = tg_alloc (nm), *pre = tg_alloc (nm), *d_x = tg_alloc (nm);
  tg_fill (c, nm, 2, -1, 1);
  tg_fill (pre, nm, 3, -1, 1);
  memcpy (d_x, pre, nm * sizeof *d_x);
  x[6] = 0.0;
  leaky_if (n, m, x, y);
  leaky_if_grad (n, m, x, y, d_x, c);
  CHECK (d_x[6] == pre[6] + 0.5 * c[6]);
  return tg_exit ();
}
