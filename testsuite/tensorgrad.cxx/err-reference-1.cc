/* { dg-do compile } */
/* A kernel takes what the gradient ABI has shadows for: a reference
   parameter is refused, with what a kernel takes.  */

__attribute__ ((differentiable))
void
scale (int n, const double &a, const double *x, double *y) /* { dg-error "parameter 'a' has unsupported type 'const double&'" } */
{
  /* { dg-message "a differentiable function takes integers, 'float' or 'double' values, and pointers to them" "" { target *-*-* } .-2 } */
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}
