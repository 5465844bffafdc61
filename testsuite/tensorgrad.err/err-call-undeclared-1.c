/* { dg-do compile } */
/* A kernel of another file, called without a declaration of its
   gradient: the caller's gradient would have nothing to call.  */

void dense (int n, int m, const double *x, const double *w, double *y);

__attribute__ ((differentiable))
void
layer (int n, int m, const double *x, const double *w, double *y)
{
  dense (n, m, x, w, y); /* { dg-error "call to .dense. cannot be differentiated: it is not defined in this file and no .dense_grad. is declared" } */
  /* { dg-message "declare its gradient, for example by including the header that .-fplugin-arg-tensorgrad-header=FILE. wrote" "" { target *-*-* } .-1 } */
}
