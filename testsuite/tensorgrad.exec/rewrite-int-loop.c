/* { dg-do run } */
/* How to rewrite (README): an integer a loop changes that is not a plain
   count.  The rewrites of tensorgrad.err/rewrite-int-loop.c: weight
   multiplies in a double (exact while the product stays below 2^53);
   crossings keeps the running sum in a local array, a recurrence, and
   counts in a loop of its own.  Checked: y equals the originals'
   (compiled here as plain C), and the gradients through the
   descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define weight weight_orig
#define crossings crossings_orig
#include "tensorgrad.err/rewrite-int-loop.c"
#undef weight
#undef crossings
#undef differentiable

__attribute__ ((differentiable))
void
weight (int n, const int *m, const double *x, double *y)
{
  double c = 1;
  for (int i = 0; i < n; i++)
    c *= m[i];
  y[0] = x[0] * c;
}

__attribute__ ((differentiable))
void
crossings (int n, const double *x, double *y)
{
  double s[n];
  for (int i = 0; i < n; i++)
    s[i] = (i > 0 ? s[i - 1] : 0) + x[i];
  int c = 0;
  for (int i = 0; i < n; i++)
    c += s[i] > 1;
  y[0] = c * x[0];
}

int
main (void)
{
  int n = 6;
  int m[6] = { 2, 3, 1, 4, 1, 2 };
  double *x = tg_alloc (n), *y = tg_alloc (1), *y0 = tg_alloc (1);
  tg_fill (x, n, 1, -0.2, 0.9);
  weight_orig (n, m, x, y0);
  weight (n, m, x, y);
  CHECK (y[0] == y0[0]);
  TG_GRADCHECK (weight, &n, m, x, y);
  crossings_orig (n, x, y0);
  crossings (n, x, y);
  CHECK (y[0] == y0[0] && y[0] != 0);
  TG_GRADCHECK (crossings, &n, x, y);
  return tg_exit ();
}
