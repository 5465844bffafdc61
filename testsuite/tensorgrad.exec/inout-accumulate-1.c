/* { dg-do run } */
/* Accumulation into an in-out array: y[i] += sum_j x[i*k+j]^2 with no
   zeroing, so y is in-out: d_y (the adjoint of the final y) is also the
   adjoint of the entry y, and d_x[i*k+j] += 2 x[i*k+j] d_y[i].
   TG_GRADCHECK checks d_x and the returned d_y against central differences
   (to atol 1e-8), accumulation into d_x, and that x and the final y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
acc (int n, int k, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      y[i] += x[i * k + j] * x[i * k + j];
}

int
main (void)
{
  int n = 5, k = 4;
  double x[20], y[5];
  tg_fill (x, 20, 1, -1, 1);
  tg_fill (y, 5, 3, -1, 1);
  const tg_check_opts tight = { 1e-6, 1e-8, 0, 0, 0 };
  TG_GRADCHECK_OPTS (acc, &tight, &n, &k, x, y);
  return tg_exit ();
}
