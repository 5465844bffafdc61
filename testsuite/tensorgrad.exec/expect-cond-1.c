/* { dg-do run } */
/* __builtin_expect in a condition is a hint that returns its first
   argument: the kernel is differentiated as if it were not there.
   y[i] = x[i] > 0 ? x[i] : 0.5 x[i] (the condition hinted likely), and a
   float variant under a hinted-unlikely test on a counter:
   d_x[i] += d_y[i] * (x[i] > 0 ? 1 : 0.5);
   d_u[i] += d_v[i] * (i == 0 ? 3 : 2 u[i]).  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
hinted (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = __builtin_expect (x[i] > 0, 1) ? x[i] : 0.5 * x[i];
}

__attribute__ ((differentiable))
void
hinted_first (int n, const float *u, float *v)
{
  for (int i = 0; i < n; i++)
    {
      if (__builtin_expect (i == 0, 0))
        v[i] = 3.0f * u[i];
      else
        v[i] = u[i] * u[i];
    }
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0.0, 0.05);
  TG_GRADCHECK (hinted, &n, x, y);

  float *u = tg_alloc_f (n), *v = tg_alloc_f (n);
  tg_fill_f (u, n, 2, -1, 1);
  TG_GRADCHECK (hinted_first, &n, u, v);
  return tg_exit ();
}
