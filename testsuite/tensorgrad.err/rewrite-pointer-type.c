/* { dg-do compile } */
/* How to rewrite (README): an array read as another element type.  A
   kernel handed float data through a pointer to double (a buffer of a
   generic API) reads it through a cast.  Refused at the read.  The
   rewrite, the parameter declared with the type the kernel reads, is
   tensorgrad.exec/rewrite-pointer-type.c.  */

__attribute__ ((differentiable))
void
widen (int n, const double *buf, double *y)
{
  const float *x = (const float *) buf;
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i]; /* { dg-error "'buf' is accessed as 'float', not as its element type" } */
}
