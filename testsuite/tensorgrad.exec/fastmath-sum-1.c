/* { dg-do run } */
/* { dg-options "-ffast-math" } */
/* With -ffast-math GCC reassociates l += a + b - c into a + (l + b) - c,
   where the accumulator is no longer an operand of the outermost +: it
   is still a sum reduction (it was refused as a loop-carried scalar).
   With r the result: d_v += d_r h; d_h += d_r (v - h); d_w += d_r c;
   d_c += d_r w.  TG_GRADCHECK checks every gradient against central
   differences, accumulation into the shadows, and that the inputs are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
dot2 (int n, const double *v, const double *h, const double *w,
      const double *c)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    l += v[i] * h[i] + w[i] * c[i] - 0.5 * h[i] * h[i];
  return l;
}

enum { N = 6 };

int
main (void)
{
  int n = N;
  double v[N], h[N], w[N], c[N];
  tg_fill (v, N, 1, -1, 1);
  tg_fill (h, N, 2, -1, 1);
  tg_fill (w, N, 3, -1, 1);
  tg_fill (c, N, 4, -1, 1);
  TG_GRADCHECK (dot2, &n, v, h, w, c);
  return tg_exit ();
}
