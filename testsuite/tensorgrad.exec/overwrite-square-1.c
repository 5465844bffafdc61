/* { dg-do run } */
/* Two writes of one output element in one loop body, the second reading
   the first: y[i] = x[i]; y[i] = y[i] * y[i]; so y = x^2 and
   d_x[i] += 2 x[i] d_y[i] (not d_y[i], the gradient of the first store,
   nor 2 y[i] d_y[i], which would read the final value), n = 7 at run
   time.  TG_GRADCHECK checks every d_x against central differences,
   accumulation into d_x, and that x, y, d_y are untouched; then d_x against
   the formula.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
square_twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i];
      y[i] = y[i] * y[i];
    }
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (square_twice, &n, x, y);

  /* The formula.  */
  double *cy = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (cy, n, 2, -1, 1);
  square_twice (n, x, y);
  square_twice_grad (n, x, y, d_x, cy);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (d_x[i], 2 * x[i] * cy[i], 1e-12, 1e-14, i);
  return tg_exit ();
}
