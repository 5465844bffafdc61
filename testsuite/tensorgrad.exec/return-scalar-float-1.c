/* { dg-do run } */
/* A kernel returning float, straight-line from three by-value floats,
   with the f-suffixed math library:
   float f (float a, float b, float c)
   { return a * b / c + expf (c) - sqrtf (a); },
   gradient void f_grad (float a, float b, float c, float *d_a,
			 float *d_b, float *d_c, float d_return).
   *d_a += d_return (b / c - 1 / (2 sqrt a)); *d_b += d_return a / c;
   *d_c += d_return (e^c - a b / c^2).  TG_GRADCHECK checks d_a, d_b, d_c
   against central differences (in float precision) of L = c_ret * f, and
   accumulation into the shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
float
mix3 (float a, float b, float c)
{
  return a * b / c + expf (c) - sqrtf (a);
}

int
main (void)
{
  float a = 1.5f, b = -0.75f, c = 0.625f;
  TG_GRADCHECK (mix3, &a, &b, &c);
  return tg_exit ();
}
