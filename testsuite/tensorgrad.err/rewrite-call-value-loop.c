/* { dg-do compile } */
/* How to rewrite (README): a kernel that returns a value, called in a
   loop.  A matrix-vector product as one dot product per row.  Refused
   at the call, with a note.  The rewrite, dot storing its result
   through a pointer, is tensorgrad.exec/rewrite-call-value-loop.c.  */

__attribute__ ((differentiable))
double
dot (int n, const double *x, const double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__ ((differentiable))
void
matvec (int B, int n, const double *x, const double *w, double *y)
{
  for (int b = 0; b < B; b++)
    y[b] = dot (n, x + b * n, w); /* { dg-error "a call to 'dot' inside a loop, whose value is used, is not supported yet" } */
  /* { dg-message "make 'dot' store its result through a pointer" "" { target *-*-* } .-1 } */
}
