/* { dg-do compile } */
/* Only a parameter itself can be tested against NULL: a pointer the
   kernel computes is not one the gradient can test.  */

__attribute__ ((differentiable))
void
rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *r = x + i * m;
      y[i] = r ? r[0] : 0; /* { dg-error "only a pointer parameter of the kernel can be tested against NULL" } */
      /* { dg-message "test the parameter itself" "" { target *-*-* } .-1 } */
    }
}
