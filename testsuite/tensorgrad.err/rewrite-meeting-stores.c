/* { dg-do compile } */
/* How to rewrite (README): two stores of one loop body that meet.  Each
   iteration stores y[i] and y[i + 1]: y[i + 1] of one iteration is y[i]
   of the next, which overwrites it.  Refused at the second store.  The
   rewrite, each element stored once with the value that wins, is
   tensorgrad.exec/rewrite-meeting-stores.c.  */

__attribute__ ((differentiable))
void
pairs (int n, const double *x, double *y)
{
  for (int i = 0; i + 1 < n; i++)
    {
      y[i] = 2 * x[i];
      y[i + 1] = x[i] + x[i + 1]; /* { dg-error "'y' is written by two statements of a loop nest whose elements may meet; not supported yet" } */
      /* { dg-message "the gradient needs every element written once; statements of one loop may store to places of one array that never meet \\(y\\\[2\\*i\\\] and y\\\[2\\*i \\+ 1\\\]\\)" "" { target *-*-* } .-1 } */
    }
}
