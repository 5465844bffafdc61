/* { dg-do run } */
/* An in-place update of a local temporary in one loop body, the second
   store reading the first: t[i] = x[i]; t[i] = t[i] * 2 + 1; then a later
   nest y[i] = t[i] * t[i], n = 7 at run time.  So y = (2x + 1)^2 and
   d_x[i] += 4 (2 x[i] + 1) d_y[i].  TG_GRADCHECK checks every d_x against
   central differences, accumulation into d_x, and that x, y, d_y are
   untouched; then d_x against the formula.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
inplace_temp (int n, const double *x, double *y)
{
  double t[n];
  for (int i = 0; i < n; i++)
    {
      t[i] = x[i];
      t[i] = t[i] * 2 + 1;
    }
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (inplace_temp, &n, x, y);

  /* The formula.  */
  double *cy = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (cy, n, 2, -1, 1);
  inplace_temp (n, x, y);
  inplace_temp_grad (n, x, y, d_x, cy);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (d_x[i], 4 * (2 * x[i] + 1) * cy[i], 1e-12, 1e-14, i);
  return tg_exit ();
}
