/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A kernel returning a value: d_return weighs it in the loss.  The log
   needs positive inputs: the check falls back to values in [1/8, 1]
   when the results are not finite at signed ones.  */

#include <math.h>

__attribute__ ((differentiable))
double
log_likelihood (int n, const double *p, const double *w) /* { dg-message "gradient of .log_likelihood. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_p., \[0-9.e+-\]+ in .d_w." } */
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * log (p[i]);
  return s;
}
