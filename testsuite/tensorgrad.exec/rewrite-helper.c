/* { dg-do run } */
/* How to rewrite (README): a helper that cannot be substituted.  The
   rewrite of tensorgrad.err/rewrite-helper.c: the helper is one
   expression of its parameter (Horner's rule), which the plugin
   substitutes where the kernel calls it.  Checked: y equals the
   original's (compiled here as plain C) to rounding, and the gradient
   through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define poly poly_orig
#define poly_act poly_act_orig
#include "tensorgrad.err/rewrite-helper.c"
#undef poly
#undef poly_act
#undef differentiable

static double
poly (double a)
{
  return 1 + a * (0.5 + a * (0.25 + a * 0.125));
}

__attribute__ ((differentiable))
void
poly_act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = poly (x[i]);
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  poly_act_orig (n, x, y0);
  poly_act (n, x, y);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (y[i], y0[i], 1e-15, 1e-16, i);
  TG_GRADCHECK (poly_act, &n, x, y);
  return tg_exit ();
}
