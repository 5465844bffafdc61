/* { dg-do compile } */
/* How to rewrite (README): a helper that cannot be substituted.  A
   polynomial activation whose helper keeps its powers in a local array.
   Refused at the call, with the reason at the helper.  The rewrite, the
   helper as one expression of its parameter, is
   tensorgrad.exec/rewrite-helper.c.  */

static double
poly (double a) /* { dg-message "a function is substituted where it is called only when its value is one expression of its parameters; 'poly' writes the local array 'p'" } */
{
  double p[4];
  p[0] = 1;
  for (int k = 1; k < 4; k++)
    p[k] = p[k - 1] * a;
  return p[0] + 0.5 * p[1] + 0.25 * p[2] + 0.125 * p[3];
}

__attribute__ ((differentiable))
void
poly_act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = poly (x[i]); /* { dg-error "call to 'poly' cannot be differentiated" } */
}
