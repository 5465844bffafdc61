/* { dg-do compile } */
/* A store into a global array inside a kernel.  */

double g[64];

__attribute__ ((differentiable))
void
stash (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] + 1.0;
      g[i] = x[i]; /* { dg-error "a store to .g., which has static storage, cannot be differentiated" } */
    }
}
