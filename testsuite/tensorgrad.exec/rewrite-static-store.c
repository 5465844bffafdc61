/* { dg-do run } */
/* How to rewrite (README): a store to a variable of static storage.  The
   rewrite of tensorgrad.err/rewrite-static-store.c: the terms go to the
   output terms (the caller passes last_terms, or NULL for the shadow
   when they only log).  Checked: the loss and the terms equal the
   original's (compiled here as plain C), and the gradient through the
   descriptor, also with the terms' shadow NULL.  */

#include "tg-test.h"

#define differentiable unused
#define mse mse_orig
#include "tensorgrad.err/rewrite-static-store.c"
#undef mse
#undef differentiable

__attribute__ ((differentiable))
double
mse (int n, const double *p, const double *t, double *terms)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      double e = (p[i] - t[i]) * (p[i] - t[i]);
      terms[i] = e;
      s += e;
    }
  return s / n;
}

int
main (void)
{
  int n = 5;
  double *p = tg_alloc (n), *t = tg_alloc (n), *terms = tg_alloc (n);
  tg_fill (p, n, 1, -1, 1);
  tg_fill (t, n, 2, -1, 1);
  double l0 = mse_orig (n, p, t);
  CHECK (mse (n, p, t, terms) == l0);
  CHECK_SAME (terms, last_terms, n * sizeof *terms);
  TG_GRADCHECK (mse, &n, p, t, terms);
  TG_GRADCHECK_NULL (mse, "terms", &n, p, t, terms);
  return tg_exit ();
}
