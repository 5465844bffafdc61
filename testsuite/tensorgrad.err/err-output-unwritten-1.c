/* { dg-do compile } */
/* An output read back where the kernel may not have written it: the
   read sees the caller's values, whose adjoint an output does not
   return (the gradient silently dropped it, and with fewer elements
   written than read its temporary overflowed).  Refused at the read.  */

__attribute__ ((differentiable))
void
part (int n, int m, const double *x, double *y, double *z)
{
  for (int i = 0; i < m; i++)
    y[i] = x[i] * 2;
  for (int i = 0; i < n; i++)
    z[i] = y[i] * y[i]; /* { dg-error "'y' may be read here beyond the elements the kernel wrote; not supported yet" } */
}

__attribute__ ((differentiable))
void
cond (int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      y[i] = x[i] * 2;
  for (int i = 0; i < n; i++)
    z[i] = y[i] * y[i]; /* { dg-error "'y' is read here where the statement that writes it may not have run; not supported yet" } */
}

/* { dg-message "the caller's values of an output are not the kernel's; read only the elements the kernel writes" "" { target *-*-* } 0 } */
/* { dg-message "the caller's values of an output are not the kernel's; write 'y' on every path, or read it under the same condition" "" { target *-*-* } 0 } */
