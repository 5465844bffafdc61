/* { dg-do run } */
/* How to rewrite (README): a pointer compared with another pointer.  The
   rewrite of tensorgrad.err/rewrite-pointer-compare.c: the test is
   dropped, since no two pointer arguments of a kernel or its gradient
   may overlap.  Checked: y equals the original's (compiled here as
   plain C) for distinct arrays, and the gradient through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define residual residual_orig
#include "tensorgrad.err/rewrite-pointer-compare.c"
#undef residual
#undef differentiable

__attribute__ ((differentiable))
void
residual (int n, const double *x, const double *r, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + r[i];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *r = tg_alloc (n);
  double *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (r, n, 2, -1, 1);
  residual_orig (n, x, r, y0);
  residual (n, x, r, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (residual, &n, x, r, y);
  return tg_exit ();
}
