/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* An array read only where an integer mask holds: its extent is what the
   accesses reach for any mask, not for the mask values the check picks
   (with them a[2] is never read, and the gradient, which adds 0 to
   d_a[2], once ran past the two elements the check gave a).  */

__attribute__ ((differentiable))
double
masked_sq (int n, const int *mask, const double *a) /* { dg-message "gradient of .masked_sq. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_a." } */
{
  double s = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      s += a[i] * a[i];
  return s;
}

__attribute__ ((differentiable))
void
pick (int n, const int *use, const double *x, const double *z, double *y) /* { dg-message "gradient of .pick. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_\[xz\]." } */
{
  for (int i = 0; i < n; i++)
    y[i] = use[i] > 1 ? x[i] * x[i] : z[i] * x[0];
}
