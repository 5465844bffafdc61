/* { dg-do compile } */
/* How to rewrite (README): a call in a loop of a kernel whose gradient
   is a function of its own.  An elementwise scale of another file (its
   gradient scale_grad declared) called for every row, directly and
   through a kernel of this file that calls it for one row.  Refused at
   the calls.  The rewrite, one call for all the rows, is
   tensorgrad.exec/rewrite-call-custom-loop.c.  */

void scale (int n, const double *x, double *y);
void scale_grad (int n, const double *x, double *y, double *d_x,
                 double *d_y);

__attribute__ ((differentiable))
void
scale_rows (int B, int n, const double *x, double *y)
{
  for (int b = 0; b < B; b++)
    scale (n, x + b * n, y + b * n); /* { dg-error "a call to 'scale', whose gradient is a function of its own, inside a loop is not supported yet" } */
}

__attribute__ ((differentiable))
void
row (int n, const double *x, double *y)
{
  scale (n, x, y);
}

__attribute__ ((differentiable))
void
rows (int B, int n, const double *x, double *y)
{
  for (int b = 0; b < B; b++)
    row (n, x + b * n, y + b * n); /* { dg-error "a call to 'scale', whose gradient is a function of its own, inside a loop is not supported yet \\(it is called in 'row'\\)" } */
}
