/* { dg-do run } */
/* How to rewrite (README): mistakes in the source.  The rewrites of
   tensorgrad.err/rewrite-mistakes.c, what the source meant (the
   originals read indeterminate values, so there is nothing to compare
   them with): shifted fills its scratch first, total starts its sum at
   0, and prefix, which caller calls, takes the length of the prefix the
   caller counts.  Checked: the values against their formulas, and the
   gradients through the descriptors.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
shifted (int n, const double *x, double *y)
{
  double t[64];
  for (int i = 0; i < n; i++)
    t[i] = x[i] + 1;
  for (int i = 0; i < n; i++)
    y[i] = 2 * t[i];
}

__attribute__ ((differentiable))
double
total (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

__attribute__ ((differentiable))
void
prefix (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

__attribute__ ((differentiable))
void
caller (int n, const double *x, double *y)
{
  prefix (n, x, y);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, 0.1, 1);
  shifted (n, x, y);
  for (int i = 0; i < n; i++)
    CHECK_AT (y[i] == 2 * (x[i] + 1), i);
  TG_GRADCHECK (shifted, &n, x, y);
  CHECK (total (n, x) == x[0] + x[1] + x[2] + x[3] + x[4]);
  TG_GRADCHECK (total, &n, x);
  caller (n, x, y);
  CHECK_SAME (y, x, n * sizeof *y);
  TG_GRADCHECK (caller, &n, x, y);
  return tg_exit ();
}
