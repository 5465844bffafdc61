/* { dg-do compile } */
/* Two statements of one loop whose elements meet: y[t*d + 2*i + 2] of
   pair i is y[t*d + 2*(i+1)] of pair i + 1.  Still refused
   (pairs-rows-1.c is the accepted form).  */

__attribute__ ((differentiable))
void
pairs_meet (int T, int d, const double *x, double *y)
{
  for (int t = 0; t < T; t++)
    for (int i = 0; i < d / 2 - 1; i++)
      {
        y[t * d + 2 * i] = x[t * d + 2 * i];
        y[t * d + 2 * i + 2] = 2 * x[t * d + 2 * i + 1]; /* { dg-error "'y' is written by two statements of a loop nest whose elements may meet; not supported yet" } */
      }
}
/* { dg-message "the gradient needs every element written once" "" { target *-*-* } 14 } */
