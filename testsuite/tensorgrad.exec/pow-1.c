/* { dg-do run } */
/* pow with both operands variable and with a constant exponent:
   y[i] = pow (x[i], p[i]), z[i] = pow (x[i], 2.5), base x in [0.5, 2]
   (positive), exponent p in [-2, 3].  d_x[i] += d_y[i] p[i] x[i]^(p[i]-1)
   + d_z[i] 2.5 x[i]^1.5, d_p[i] += d_y[i] y[i] log (x[i]).  TG_GRADCHECK
   checks every d_x[i] and d_p[i] against central differences, accumulation
   into pre-filled shadows, and that x, p, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
powk (int n, const double *x, const double *p, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = pow (x[i], p[i]);
      z[i] = pow (x[i], 2.5);
    }
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *p = tg_alloc (n), *y = tg_alloc (n);
  double *z = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 2.0);
  tg_fill (p, n, 2, -2.0, 3.0);
  TG_GRADCHECK (powk, &n, x, p, y, z);
  return tg_exit ();
}
