/* { dg-do run } */
/* Strided and offset affine reads of one input, 1-D: x holds 2n values,
   y[i] = x[2*i+1] * x[2*i+1] - 3 * x[2*i].  d_x[2i+1] += 2 d_y x[2i+1];
   d_x[2i] += -3 d_y.  TG_GRADCHECK checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
pairs (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[2 * i + 1] * x[2 * i + 1] - 3 * x[2 * i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (2 * n), *y = tg_alloc (n);
  tg_fill (x, 2 * n, 1, -2, 2);
  TG_GRADCHECK (pairs, &n, x, y);
  return tg_exit ();
}
