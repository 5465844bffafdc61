/* { dg-do compile } */
/* How to rewrite (README): an output read beyond the elements the
   kernel writes.  The first m entries of y recomputed, the others left
   as the caller had them, then all n read back.  Refused at the read.
   The rewrite, the caller's entries in an input of their own, is
   tensorgrad.exec/rewrite-output-range.c.  */

__attribute__ ((differentiable))
void
refresh (int n, int m, const double *x, double *y, double *z)
{
  for (int i = 0; i < m; i++)
    y[i] = 2 * x[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] * y[i]; /* { dg-error "'y' may be read here beyond the elements the kernel wrote; not supported yet" } */
  /* { dg-message "the caller's values of an output are not the kernel's; read only the elements the kernel writes" "" { target *-*-* } .-1 } */
}
