/* { dg-do compile } */
/* A read of a global array inside a kernel.  */

double table[64];

__attribute__ ((differentiable))
void
lookup_scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * table[i]; /* { dg-error "access to global variable .table. is not supported" } */
}
