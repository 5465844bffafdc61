/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A deliberately wrong custom gradient (d_x[1] gets 0.5 too many) fails
   the build with an error naming the function, the shadow and the index
   of the first wrong component.  */

#include <math.h>

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y) /* { dg-error "gradient of .poly. is wrong at n=3: .d_x.\\\[1\\\] is \[-0-9.e+\]+ where finite differences give \[-0-9.e+\]+" } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] + sin (x[i]);
}
/* { dg-message "relative error \[0-9.e+-\]+, above the tolerance" "" { target *-*-* } 11 } */

void
poly_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += d_y[i] * (2 * x[i] + cos (x[i])) + (i == 1 ? 0.5 : 0);
}
