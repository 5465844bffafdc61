/* { dg-do compile } */
/* How to rewrite (README): an optional output.  An activation that also
   stores its derivative when the caller passes an array for it.
   Refused at the parameter.  The rewrite, a kernel with the output and
   one without, is tensorgrad.exec/rewrite-optional-output.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y,
     double *dy) /* { dg-error "'dy', which the kernel tests against NULL, is written: an optional output is not supported yet" } */
{
  for (int i = 0; i < n; i++)
    {
      double t = tanh (x[i]);
      y[i] = t;
      if (dy)
        dy[i] = 1 - t * t;
    }
}
