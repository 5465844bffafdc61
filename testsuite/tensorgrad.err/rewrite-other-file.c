/* { dg-do compile } */
/* How to rewrite (README): a kernel of another file called without its
   gradient's prototype.  A layer calling dense, a kernel of another
   file: once with only dense declared, once with dense_grad declared by
   hand with a shadow missing.  Refused at the call, the second with the
   expected type at the declaration.  The rewrite, the prototype
   -fplugin-arg-tensorgrad-header writes, is
   tensorgrad.exec/rewrite-other-file.c.  */

#include <math.h>

void dense (int n, int k, int m, const double *x, const double *w,
            double *y);

__attribute__ ((differentiable))
void
layer (int n, int k, int m, const double *x, const double *w, double *y)
{
  double t[n * m];
  dense (n, k, m, x, w, t); /* { dg-error "call to 'dense' cannot be differentiated: it is not defined in this file and no 'dense_grad' is declared" } */
  /* { dg-message "declare its gradient, for example by including the header that '-fplugin-arg-tensorgrad-header=FILE' wrote where it was compiled" "" { target *-*-* } .-1 } */
  for (int i = 0; i < n * m; i++)
    y[i] = tanh (t[i]);
}

void dense2 (int n, int k, int m, const double *x, const double *w,
             double *y);
void dense2_grad (int n, int k, int m, const double *x, const double *w,
                  double *y, double *d_x, double *d_y);
/* { dg-message "expected 'void ?\\(int, +int, +int, +const double \\*, +const double \\*, +double \\*, +double \\*, +double \\*, +double \\*\\)'" "" { target *-*-* } .-2 } */

__attribute__ ((differentiable))
void
layer2 (int n, int k, int m, const double *x, const double *w, double *y)
{
  double t[n * m];
  dense2 (n, k, m, x, w, t); /* { dg-error "call to 'dense2' cannot be differentiated: 'dense2_grad' does not have the type of its gradient" } */
  for (int i = 0; i < n * m; i++)
    y[i] = tanh (t[i]);
}
