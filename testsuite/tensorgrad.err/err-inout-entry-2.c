/* { dg-do compile } */
/* sin of an in-out parameter in place, with another input: the gradient
   needs cos of the entry value of y.  */

#include <math.h>

__attribute__ ((differentiable))
void
sin_inplace (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sin (y[i]) + x[i]; /* { dg-error "the gradient needs the entry value of .y., which this statement overwrites" } */
}
