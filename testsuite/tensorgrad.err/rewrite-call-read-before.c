/* { dg-do compile } */
/* How to rewrite (README): an array read before a call writes it.  A
   step that decays the previous output into mem, then overwrites the
   output with dense of another file.  Refused at the read.  The
   rewrite, the previous output in an input of its own, is
   tensorgrad.exec/rewrite-call-read-before.c.  */

void dense (int n, int k, int m, const double *x, const double *w,
            double *y);
void dense_grad (int n, int k, int m, const double *x, const double *w,
                 double *y, double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
step (int n, int k, int m, const double *x, const double *w, double *y,
      double *mem)
{
  for (int i = 0; i < n * m; i++)
    mem[i] = 0.9 * y[i]; /* { dg-error "'y' is read before the call to 'dense' writes it; not supported yet" } */
  dense (n, k, m, x, w, y);
}
