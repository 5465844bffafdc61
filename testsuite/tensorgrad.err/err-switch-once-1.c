/* { dg-do compile } */
/* A switch is refused once, at the switch, not once per case label (the
   lifter meets it on every edge out of it).  */

__attribute__ ((differentiable))
void
modes (int n, int mode, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    switch (mode) /* { dg-error "switch statements are not supported" } */
      {
      case 0: y[i] = x[i]; break;
      case 1: y[i] = 2 * x[i]; break;
      case 2: y[i] = x[i] * x[i]; break;
      default: y[i] = 0;
      }
}
