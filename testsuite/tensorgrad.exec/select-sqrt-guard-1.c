/* { dg-do run } */
/* A select guarding a function whose derivative is infinite or NaN on the
   other side: y = x > 0 ? sqrt (x) : 0, so d_x += d_y (x > 0 ?
   1 / (2 sqrt x) : 0).  The gradient must not evaluate sqrt's derivative
   where x <= 0 (0 * NaN would poison d_x there): TG_GRADCHECK checks
   every d_x, on both sides, against central differences, accumulation
   into d_x, and that x, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
k15 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? sqrt (x[i]) : 0;
}

int
main (void)
{
  int n = 7;
  double x[16], y[16] = { 0 };
  tg_fill (x, 16, 1, -2, 2);
  TG_GRADCHECK (k15, &n, x, y);
  return tg_exit ();
}
