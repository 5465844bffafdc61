/* { dg-do compile } */
/* The attribute on a local variable of an ordinary function.  */

double
sum3 (const double *x)
{
  __attribute__ ((differentiable)) double s = x[0]; /* { dg-error ".differentiable. attribute only applies to functions" } */
  s += x[1] + x[2];
  return s;
}
