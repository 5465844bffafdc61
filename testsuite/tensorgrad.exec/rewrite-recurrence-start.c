/* { dg-do run } */
/* How to rewrite (README): a recurrence that starts from the caller's
   value.  The rewrite of tensorgrad.err/rewrite-recurrence-start.c: the
   initial state is the parameter y0, stored in y[0] by a statement of
   its own before the loop.  Checked: y equals the original's (compiled
   here as plain C, its y[0] set to y0 by the caller), and the gradient
   through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define filter filter_orig
#include "tensorgrad.err/rewrite-recurrence-start.c"
#undef filter
#undef differentiable

__attribute__ ((differentiable))
void
filter (int n, double a, double y0, const double *x, double *y)
{
  y[0] = y0;
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + x[i];
}

int
main (void)
{
  int n = 6;
  double a = 0.7, y0 = 0.4;
  double *x = tg_alloc (n), *y = tg_alloc (n), *yo = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  yo[0] = y0;
  filter_orig (n, a, x, yo);
  filter (n, a, y0, x, y);
  CHECK_SAME (y, yo, n * sizeof *y);
  TG_GRADCHECK (filter, &n, &a, &y0, x, y);
  return tg_exit ();
}
