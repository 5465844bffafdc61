/* { dg-do compile } */
/* How to rewrite (README): a store to a variable of static storage.  A
   loss that also keeps its per-example terms in a global for logging.
   Refused at the store.  The rewrite, the terms in an output of the
   kernel, is tensorgrad.exec/rewrite-static-store.c.  */

double last_terms[64];

__attribute__ ((differentiable))
double
mse (int n, const double *p, const double *t)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      double e = (p[i] - t[i]) * (p[i] - t[i]);
      last_terms[i] = e; /* { dg-error "a store to 'last_terms', which has static storage, cannot be differentiated" } */
      s += e;
    }
  return s / n;
}
