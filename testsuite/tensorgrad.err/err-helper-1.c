/* { dg-do compile } */
/* A helper function of the file that is not marked differentiable: the
   call is refused, with a note at the helper saying how to make it
   differentiable (then its value is substituted where it is called:
   lstm-1.c).  */

#include <math.h>

static double
sigm (double a) /* { dg-message "mark .sigm. .__attribute__ \\(\\(differentiable\\)\\). to differentiate through it" } */
{
  return 1 / (1 + exp (-a));
}

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sigm (x[i]); /* { dg-error "call to .sigm. cannot be differentiated" } */
}
