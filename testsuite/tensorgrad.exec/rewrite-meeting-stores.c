/* { dg-do run } */
/* How to rewrite (README): two stores of one loop body that meet.  The
   rewrite of tensorgrad.err/rewrite-meeting-stores.c: every element is
   stored once, with the value the last store of the original leaves
   there: 2 x[i], but x[n - 2] + x[n - 1] for the last (two stores that
   never meet).
   Checked: y equals the original's (compiled here as plain C), and the
   gradient through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define pairs pairs_orig
#include "tensorgrad.err/rewrite-meeting-stores.c"
#undef pairs
#undef differentiable

__attribute__ ((differentiable))
void
pairs (int n, const double *x, double *y)
{
  for (int i = 0; i + 1 < n; i++)
    y[i] = 2 * x[i];
  if (n >= 2)
    y[n - 1] = x[n - 2] + x[n - 1];
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  pairs_orig (n, x, y0);
  pairs (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (pairs, &n, x, y);
  double one[1] = { 3.0 };
  pairs (1, x, one); /* neither stores anything */
  CHECK (one[0] == 3.0);
  return tg_exit ();
}
