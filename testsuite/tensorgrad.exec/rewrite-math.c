/* { dg-do run } */
/* How to rewrite (README): a math function without a derivative rule,
   and a value converted to an integer.  The rewrites of
   tensorgrad.err/rewrite-math.c: fmod (x, p) is x - p * trunc (x / p)
   (trunc has a rule: derivative 0), and the cast through long is trunc
   too.  Checked: y equals the originals' (compiled here as plain C) to
   rounding, and the gradients through the descriptors, x away from the
   jumps.  */

#include "tg-test.h"

#define differentiable unused
#define wrap wrap_orig
#define quantize quantize_orig
#include "tensorgrad.err/rewrite-math.c"
#undef wrap
#undef quantize
#undef differentiable

__attribute__ ((differentiable))
void
wrap (int n, double period, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sin (x[i] - period * trunc (x[i] / period));
}

__attribute__ ((differentiable))
void
quantize (int n, double step, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = step * trunc (x[i] / step) + 0.1 * x[i];
}

int
main (void)
{
  int n = 6;
  double period = 1.3, step = 0.5;
  double x[6] = { -2.9, -1.1, -0.3, 0.4, 1.7, 3.2 };
  double *y = tg_alloc (n), *y0 = tg_alloc (n);
  wrap_orig (n, period, x, y0);
  wrap (n, period, x, y);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (y[i], y0[i], 1e-14, 1e-15, i);
  TG_GRADCHECK (wrap, &n, &period, x, y);
  quantize_orig (n, step, x, y0);
  quantize (n, step, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (quantize, &n, &step, x, y);
  return tg_exit ();
}
