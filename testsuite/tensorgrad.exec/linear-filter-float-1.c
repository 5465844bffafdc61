/* { dg-do run } */
/* The first-order linear filter of linear-filter-1.c in float: the
   recurrence and its reversed gradient computed in the kernel's own
   type, a a by-value float (d_a a float *), n = 9 at run time:
     y[0] = x[0];  y[i] = a y[i-1] + (1 - a) x[i].
   g_i = d_y[i] + a g_{i+1}; d_x[i] += (1 - a) g_i (i > 0), d_x[0] += g_0;
   *d_a += sum_{i>0} g_i (y[i-1] - x[i]).  TG_GRADCHECK checks every d_x and
   d_a against central differences in float precision (tg_gradcheck's float
   step and tolerances), accumulation into the shadows, and that x, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ema_f (int n, float a, const float *x, float *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + (1 - a) * x[i];
}

int
main (void)
{
  int n = 9;
  float a = 0.7f;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -2, 2);
  TG_GRADCHECK (ema_f, &n, &a, x, y);
  return tg_exit ();
}
