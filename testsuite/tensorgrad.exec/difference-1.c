/* { dg-do run } */
/* Two reads of one input at different indices: the forward difference
   y[i] = x[i] - x[i+1] for i < n - 1, x of run-time length n = 5.
   d_x[i] += d_y[i]; d_x[i+1] -= d_y[i] (both ends get one term, the
   interior two).  TG_GRADCHECK checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
forward_diff (int n, const double *x, double *y)
{
  for (int i = 0; i < n - 1; i++)
    y[i] = x[i] - x[i + 1];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n - 1);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (forward_diff, &n, x, y);
  return tg_exit ();
}
