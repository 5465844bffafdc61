/* { dg-do compile } */
/* A counted loop with a break has two exits.  */

__attribute__ ((differentiable))
void
copy_until_negative (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) /* { dg-error "loop with more than one exit cannot be differentiated" } */
    {
      if (x[i] < 0)
	break;
      y[i] = x[i];
    }
}
