/* { dg-do compile } */
/* How to rewrite (README): a loop whose number of iterations cannot be
   told.  A loop with two bounds joined by &&, a pointer walk to an end
   pointer, and a while loop on the data.  Refused at each loop (the
   first, at -O0, as a loop with more than one exit).  The
   rewrites, one bound (the smaller), an indexed loop, and the count
   passed by the caller, are tensorgrad.exec/rewrite-trip-count.c.  */

__attribute__ ((differentiable))
void
head (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n && i < m; i++) /* { dg-error "cannot determine the number of iterations of this loop|loop with more than one exit cannot be differentiated" } */
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  const double *end = x + n;
  while (x != end) /* { dg-error "cannot determine the number of iterations of this loop" } */
    *y++ = 2 * *x++;
}

__attribute__ ((differentiable))
void
until_negative (const double *x, double *y)
{
  int i = 0;
  while (x[i] >= 0) /* { dg-error "cannot determine the number of iterations of this loop" } */
    {
      y[i] = 2 * x[i];
      i++;
    }
}
