/* { dg-do compile } */
/* How to rewrite (README): an in-place update whose gradient needs the
   value it overwrote.  A layer norm of x in place (the update reads
   x[i] and overwrites it), and x projected onto w in place (the sum
   reads x, a later loop overwrites it).  Refused at the store that
   overwrites the value.  The rewrites, the result in an output of its own, are
   tensorgrad.exec/rewrite-inplace.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
layernorm (int n, double *x)
{
  double m = 0;
  for (int i = 0; i < n; i++)
    m += x[i];
  m /= n;
  double v = 0;
  for (int i = 0; i < n; i++)
    v += (x[i] - m) * (x[i] - m);
  double r = 1 / sqrt (v / n + 1e-5);
  for (int i = 0; i < n; i++)
    x[i] = (x[i] - m) * r; /* { dg-error "the gradient needs the entry value of 'x', which this statement overwrites" } */
}

__attribute__ ((differentiable))
void
project (int n, const double *w, double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * x[i];
  for (int i = 0; i < n; i++)
    x[i] = s * w[i]; /* { dg-error "the gradient needs the entry value of 'x', which a later statement overwrites" } */
}
