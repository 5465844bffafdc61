/* { dg-do compile } */
/* A scalar summed in one arm of an if/else and multiplied in the other is
   no one reduction: the error says so, and does not advise 's += e',
   which the kernel already has.  */

__attribute__ ((differentiable))
double
mixed (int n, const double *x)
{
  double s = 1;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      s += x[i];
    else
      s *= x[i];
  return s; /* { dg-error "loop-carried scalar .s. is updated by different operations in the branches of a condition; a reduction must use one \\(\\+, \\*, fmax or fmin\\)" } */
}
