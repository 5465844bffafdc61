/* { dg-do compile } */
/* Two stores of one loop body whose elements meet: y[i + 1] of one
   iteration is y[i] of the next, so each element is written twice and
   the last write wins.  Refused at the second store.  The same body with
   the counter stepped by 2 stores to places that never meet and is
   differentiated (tensorgrad.exec/stores-apart-1.c).  */

__attribute__ ((differentiable))
void
smooth2 (int n, const double *x, double *y)
{
  for (int i = 0; i + 1 < n; i++)
    {
      y[i] = 2 * x[i];
      y[i + 1] = x[i] + x[i + 1]; /* { dg-error "'y' is written by two statements of a loop nest whose elements may meet; not supported yet" } */
      /* { dg-message "the gradient needs every element written once" "" { target *-*-* } .-1 } */
    }
}
