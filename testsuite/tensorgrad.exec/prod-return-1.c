/* { dg-do run } */
/* A product reduction into a returned double, run-time length n = 5:
   double vprod (int n, const double *x)
   { double p = 1; for (i < n) p *= x[i]; return p; },
   gradient void vprod_grad (int n, const double *x, double *d_x,
			     double d_return).
   d_x[i] += d_return * prod_{j != i} x[j] -- not d_return * p / x[i],
   which is NaN when x[i] = 0.  TG_GRADCHECK checks every d_x against
   central differences (all |x| >= 0.25), accumulation into d_x, and that x
   is untouched.  Then, exactly, on values whose products are exact in
   binary: with one zero factor only that factor gets d_return * (product of
   the others) and every other d_x keeps its value; with two zero factors no
   d_x changes.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
vprod (int n, const double *x)
{
  double p = 1;
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0, 0.25);
  TG_GRADCHECK (vprod, &n, x);

  /* One zero factor, x[2]: d_x[2] gets c * (1.5 * -2 * 0.75 * 3) =
     -0.625 * -6.75 = 4.21875, the others nothing.  */
  double c = -0.625, *pre = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (pre, n, 2, -1, 1);
  double z1[5] = { 1.5, -2, 0, 0.75, 3 };
  memcpy (x, z1, sizeof z1);
  memcpy (d_x, pre, n * sizeof *d_x);
  CHECK (vprod (n, x) == 0);
  vprod_grad (n, x, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == (i == 2 ? pre[i] + 4.21875 : pre[i]), i);
  /* Two zero factors: every partial derivative is 0.  */
  double z2[5] = { 1.5, 0, -2, 0, 3 };
  memcpy (x, z2, sizeof z2);
  memcpy (d_x, pre, n * sizeof *d_x);
  vprod (n, x);
  vprod_grad (n, x, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == pre[i], i);
  return tg_exit ();
}
