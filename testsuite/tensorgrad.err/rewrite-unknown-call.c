/* { dg-do compile } */
/* How to rewrite (README): a call of a function whose body is not in
   sight.  An MLP layer calling gelu, defined in another file.  Refused
   at the call, with a note at the declaration.  The rewrite, the
   helper defined in the kernel's file, is
   tensorgrad.exec/rewrite-unknown-call.c.  */

double gelu (double); /* { dg-message "the body of 'gelu' is not in sight" } */

__attribute__ ((differentiable))
void
gelu_layer (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = gelu (x[i]); /* { dg-error "call to 'gelu' cannot be differentiated" } */
}
