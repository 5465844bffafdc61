/* { dg-do run } */
/* How to rewrite (README): an optional output.  The rewrite of
   tensorgrad.err/rewrite-optional-output.c: two kernels, act with the
   output dy and act_y without it; the caller calls the one it needs (a
   wrapper may keep the original's signature).  Checked: y and dy equal
   the original's (compiled here as plain C), with dy and with NULL,
   and both gradients through their descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define act act_orig
#include "tensorgrad.err/rewrite-optional-output.c"
#undef act
#undef differentiable

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y, double *dy)
{
  for (int i = 0; i < n; i++)
    {
      double t = tanh (x[i]);
      y[i] = t;
      dy[i] = 1 - t * t;
    }
}

__attribute__ ((differentiable))
void
act_y (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n), *dy = tg_alloc (n);
  double *y0 = tg_alloc (n), *dy0 = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  act_orig (n, x, y0, dy0);
  act (n, x, y, dy);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (dy, dy0, n * sizeof *dy);
  act_orig (n, x, y0, NULL);
  act_y (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (act, &n, x, y, dy);
  TG_GRADCHECK (act_y, &n, x, y);
  return tg_exit ();
}
