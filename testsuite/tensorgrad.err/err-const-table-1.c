/* { dg-do compile } */
/* Constant tables of coefficients, at file scope and as a function's
   static const: named as what they are (a static local is no global),
   and refused once per access as not supported yet.  */

static const double coef[4] = { 1.0, 0.5, 0.25, 0.125 };

__attribute__ ((differentiable))
void
poly_file (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = coef[i % 4] * x[i]; /* { dg-error "global constant table .coef. is not supported yet" } */
}

__attribute__ ((differentiable))
void
poly_local (int n, const double *x, double *y)
{
  static const double w[3] = { 0.25, 0.5, 0.25 };
  for (int i = 0; i + 2 < n; i++)
    y[i] = w[0] * x[i] + w[1] * x[i + 1] + w[2] * x[i + 2]; /* { dg-error "static constant table .w. is not supported yet" } */
}
