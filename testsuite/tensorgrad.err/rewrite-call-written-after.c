/* { dg-do compile } */
/* How to rewrite (README): an array written after a call reads it.  A
   residual block that adds dense (of another file) of x to x in place.
   Refused at the addition.  The rewrite, the sum in an output of its
   own, is tensorgrad.exec/rewrite-call-written-after.c.  */

void dense (int n, int k, int m, const double *x, const double *w,
            double *y);
void dense_grad (int n, int k, int m, const double *x, const double *w,
                 double *y, double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
residual (int n, int m, const double *w, double *x)
{
  double t[n * m];
  dense (n, m, m, x, w, t);
  for (int i = 0; i < n * m; i++)
    x[i] += t[i]; /* { dg-error "'x' is written after the call to 'dense' reads it; not supported yet" } */
}
