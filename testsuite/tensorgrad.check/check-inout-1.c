/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* axpy: y in-out (its gradient is the adjoint of its entry value) and a
   scalar a (its shadow a pointer to one element) are checked too.  */

__attribute__ ((differentiable))
void
axpy (int n, double a, const double *x, double *y) /* { dg-message "gradient of .axpy. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_a., \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_y." } */
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] * x[i] + y[i];
}
