/* { dg-do compile } */
/* How to rewrite (README): a math function without a derivative rule,
   and a value converted to an integer.  A phase wrapped with fmod, and
   a value quantized by a cast to long.  Refused at the call, and at the
   cast.  The rewrites, through trunc,
   are tensorgrad.exec/rewrite-math.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
wrap (int n, double period, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sin (fmod (x[i], period)); /* { dg-error "call to 'fmod' cannot be differentiated" } */
}

__attribute__ ((differentiable))
void
quantize (int n, double step, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = step * (double) (long) (x[i] / step) + 0.1 * x[i]; /* { dg-error "conversion to an integer of a floating-point value cannot be differentiated" } */
    /* { dg-message "to round a value, use .trunc., .floor., .ceil. or .round., which keep it floating" "" { target *-*-* } .-1 } */
}
