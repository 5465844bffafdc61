/* { dg-do run } */
/* How to rewrite (README): an array partly overwritten afterwards.  The
   rewrite of tensorgrad.err/rewrite-partial-overwrite.c: the boundary
   test is part of the one store of each element.  Checked: y equals the
   original's (compiled here as plain C), and the gradient through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define smooth smooth_orig
#include "tensorgrad.err/rewrite-partial-overwrite.c"
#undef smooth
#undef differentiable

__attribute__ ((differentiable))
void
smooth (int n, const double *u, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i == 0 || i == n - 1
             ? 0
             : 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
}

int
main (void)
{
  int n = 7;
  /* One element more than the kernel reads: the descriptor bounds
     u[i + 1] by i < n, not by the select's i != n - 1, and says u has
     n + 1 elements, which tg_gradcheck copies.  */
  double *u = tg_alloc (n + 1), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (u, n, 1, -1, 1);
  smooth_orig (n, u, y0);
  smooth (n, u, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (smooth, &n, u, y);
  return tg_exit ();
}
