/* { dg-do compile } */
/* How to rewrite (README): an output a call writes, read again.  A
   layer that keeps its pre-activation in the output pre, written by
   dense of another file, and reads it for the activation.  Refused at
   the read, with a note.  The rewrite, the call's result in a local
   array copied into pre by a loop of its own, is
   tensorgrad.exec/rewrite-call-read-again.c.  */

#include <math.h>

void dense (int n, int k, int m, const double *x, const double *w,
            double *y);
void dense_grad (int n, int k, int m, const double *x, const double *w,
                 double *y, double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
tanh_layer (int n, int k, int m, const double *x, const double *w,
            double *pre, double *y)
{
  dense (n, k, m, x, w, pre);
  for (int i = 0; i < n * m; i++)
    y[i] = tanh (pre[i]); /* { dg-error "'pre', which the call to 'dense' writes, is read again; not supported yet" } */
  /* { dg-message "pass a local array to 'dense' and copy it into 'pre' in a loop of its own" "" { target *-*-* } .-1 } */
}
