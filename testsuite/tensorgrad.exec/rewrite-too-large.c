/* { dg-do run } */
/* How to rewrite (README): a gradient too large.  The rewrite of
   tensorgrad.err/rewrite-too-large.c: the twenty steps are a loop, whose
   carried scalar b gets a tape of one value per step; the gradient runs
   the steps backwards, one select each.  Checked: y equals the
   original's (compiled here as plain C), and the gradient through the
   descriptor, x away from the kink at 0.  */

#include "tg-test.h"

#define differentiable unused
#define steps steps_orig
#include "tensorgrad.err/rewrite-too-large.c"
#undef steps
#undef differentiable

__attribute__ ((differentiable))
void
steps (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double b = x[i];
      for (int k = 0; k < 20; k++)
        b = b > 0 ? b * 0.5 : b * 0.25;
      y[i] = b;
    }
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill_away (x, n, 1, -1, 1, 0, 0.05);
  steps_orig (n, x, y0);
  steps (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (steps, &n, x, y);
  return tg_exit ();
}
