/* { dg-do compile } */
/* How to rewrite (README): an array a call writes, written again.  A
   layer calling dense of another file into its output y, then adding
   the bias to y in place.  Refused at the addition.  The rewrite, the
   call's result in a local array, is
   tensorgrad.exec/rewrite-call-written-again.c.  */

void dense (int n, int k, int m, const double *x, const double *w,
            double *y);
void dense_grad (int n, int k, int m, const double *x, const double *w,
                 double *y, double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
linear (int n, int k, int m, const double *x, const double *w,
        const double *b, double *y)
{
  dense (n, k, m, x, w, y);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] += b[j]; /* { dg-error "'y' is written by the call to 'dense' and again here; not supported yet" } */
  /* { dg-message "write the result of one of them to another array" "" { target *-*-* } .-1 } */
}
