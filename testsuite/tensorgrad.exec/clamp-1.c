/* { dg-do run } */
/* Clamp with by-value double bounds, nested ternaries, 1-D:
   y[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]).
   d_x[i] += d_y[i] where lo <= x[i] <= hi; d_lo (double *) += sum of d_y
   where x < lo; d_hi += sum of d_y where x > hi.  With x at least 1e-3
   from lo and hi, TG_GRADCHECK checks d_x, d_lo, d_hi against central
   differences, accumulation into the shadows, and that x, y, d_y are
   untouched; then, exactly, x == lo and x == hi select x (the compare is
   false), so the adjoint goes to d_x.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
clamp (int n, double lo, double hi, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
}

int
main (void)
{
  int n = 15;
  double lo = -0.7, hi = 0.9;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, lo, 1e-3);
  for (int i = 0; i < n; i++)
    if (fabs (x[i] - hi) < 1e-3)
      x[i] += 0.1;
  int nlo = 0, nhi = 0;
  for (int i = 0; i < n; i++)
    {
      nlo += x[i] < lo;
      nhi += x[i] > hi;
    }
  CHECK (nlo > 0 && nhi > 0 && nlo + nhi < n);
  TG_GRADCHECK (clamp, &n, &lo, &hi, x, y);

  /* On the bounds the comparisons are false: x itself is chosen.  */
  double *c = tg_alloc (n), *pre = tg_alloc (n), *d_x = tg_alloc (n);
  double d_lo = 0, d_hi = 0;
  tg_fill (c, n, 2, -1, 1);
  tg_fill (pre, n, 3, -1, 1);
  memcpy (d_x, pre, n * sizeof *d_x);
  x[0] = lo;
  x[1] = hi;
  clamp (n, lo, hi, x, y);
  clamp_grad (n, lo, hi, x, y, &d_lo, &d_hi, d_x, c);
  CHECK (d_x[0] == pre[0] + c[0]);
  CHECK (d_x[1] == pre[1] + c[1]);
  double elo = 0, ehi = 0;
  for (int i = 2; i < n; i++)
    {
      elo += x[i] < lo ? c[i] : 0;
      ehi += x[i] > hi ? c[i] : 0;
    }
  CHECK_NEAR (d_lo, elo, 1e-12, 1e-14);
  CHECK_NEAR (d_hi, ehi, 1e-12, 1e-14);
  return tg_exit ();
}
