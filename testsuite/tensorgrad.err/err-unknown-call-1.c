/* { dg-do compile } */
/* A call to a function the plugin does not know cannot be differentiated:
   the error points at the call.  */

extern double mystery (double);

__attribute__ ((differentiable))
void
apply_mystery (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * mystery (x[i]); /* { dg-error "call to .mystery. cannot be differentiated" } */
}
