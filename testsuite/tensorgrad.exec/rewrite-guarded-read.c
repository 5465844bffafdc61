/* { dg-do run } */
/* How to rewrite (README): an element stored under a condition and read
   in the same iteration.  The rewrite of
   tensorgrad.err/rewrite-guarded-read.c: the new value is chosen by a
   select, x[i] or the entry value y[i], and stored unconditionally after
   z, so that every statement reads y's entry value before the store (z
   after the store, as in the original, is still refused); y is in-out.  Checked: y and z equal the original's (compiled here as
   plain C), and the gradient through the descriptor, x away from 0.  */

#include "tg-test.h"

#define differentiable unused
#define keep_positive keep_positive_orig
#include "tensorgrad.err/rewrite-guarded-read.c"
#undef keep_positive
#undef differentiable

__attribute__ ((differentiable))
void
keep_positive (int n, const double *x, const double *y0, double *y,
               double *z)
{
  for (int i = 0; i < n; i++)
    {
      double v = x[i] > 0 ? x[i] : y0[i];
      y[i] = v;
      z[i] = v * v;
    }
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n), *z = tg_alloc (n);
  double *z0 = tg_alloc (n);
  tg_fill_away (x, n, 1, -1, 1, 0, 0.05);
  tg_fill (y, n, 2, -1, 1);
  double *y0 = tg_dup (y, n), *yo = tg_dup (y, n);
  keep_positive_orig (n, x, yo, z0);
  keep_positive (n, x, y0, y, z);
  CHECK_SAME (y, yo, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  TG_GRADCHECK (keep_positive, &n, x, y0, y, z);
  return tg_exit ();
}
