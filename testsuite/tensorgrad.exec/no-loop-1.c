/* { dg-do run } */
/* A void kernel with no loops, straight-line stores into an output:
   y[0] = x[0] * x[1]; y[1] = x[2] / x[1];
   d_x[0] += d_y[0] x[1]; d_x[1] += d_y[0] x[0] - d_y[1] x[2] / x[1]^2;
   d_x[2] += d_y[1] / x[1].  TG_GRADCHECK checks every d_x against central
   differences, accumulation into d_x, and that x, y, d_y are untouched;
   then that y[2] is never written.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prod_ratio (const double *x, double *y)
{
  y[0] = x[0] * x[1];
  y[1] = x[2] / x[1];
}

int
main (void)
{
  double x[3] = { 1.25, -0.75, 2.5 }, y[3] = { 0, 0, 42.0 };
  TG_GRADCHECK (prod_ratio, x, y);

  /* y[2], past the extent the descriptor gives y, is never written.  */
  double d_x[3] = { 0 }, d_y[3] = { 0.6, -1.1, 0 };
  prod_ratio (x, y);
  prod_ratio_grad (x, y, d_x, d_y);
  CHECK (y[2] == 42.0);
  return tg_exit ();
}
