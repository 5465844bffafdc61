/* { dg-do run } */
/* How to rewrite (README): a scalar carried by an outer loop and read in
   an inner one.  The rewrite of tensorgrad.err/rewrite-carried-scalar.c:
   the gain of row i is s[i] of a local array, a recurrence s[i + 1]
   from s[i].  Checked: y equals the original's (compiled here as plain
   C), and the gradient through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define decay decay_orig
#include "tensorgrad.err/rewrite-carried-scalar.c"
#undef decay
#undef differentiable

__attribute__ ((differentiable))
void
decay (int n, int m, const double *x, double *y)
{
  double s[n + 1];
  s[0] = 1;
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
        y[i * m + j] = s[i] * x[i * m + j];
      s[i + 1] = 0.5 * s[i] + x[i * m];
    }
}

int
main (void)
{
  int n = 4, m = 3;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m), *y0 = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -1, 1);
  decay_orig (n, m, x, y0);
  decay (n, m, x, y);
  CHECK_SAME (y, y0, n * m * sizeof *y);
  TG_GRADCHECK (decay, &n, &m, x, y);
  return tg_exit ();
}
