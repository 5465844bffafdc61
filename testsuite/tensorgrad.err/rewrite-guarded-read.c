/* { dg-do compile } */
/* How to rewrite (README): an element stored under a condition and read
   in the same iteration.  A clipped update that keeps the caller's
   value of y where x is not positive, and squares the result into z.
   Refused at the read.  The rewrite, the value chosen by a select and
   stored unconditionally, is tensorgrad.exec/rewrite-guarded-read.c.  */

__attribute__ ((differentiable))
void
keep_positive (int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 0)
        y[i] = x[i];
      z[i] = y[i] * y[i]; /* { dg-error "'y' is read after it is written; not supported yet" } */
    }
}
