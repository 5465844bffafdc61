/* { dg-do run } */
/* How to rewrite (README): an in-place update whose gradient needs the
   value it overwrote.  The rewrites of tensorgrad.err/rewrite-inplace.c:
   x is an input the kernel only reads, the result goes to the output y.
   Checked: y equals what the originals (compiled here as plain C) leave
   in x, and the gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define layernorm layernorm_orig
#define project project_orig
#include "tensorgrad.err/rewrite-inplace.c"
#undef layernorm
#undef project
#undef differentiable

__attribute__ ((differentiable))
void
layernorm (int n, const double *x, double *y)
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
    y[i] = (x[i] - m) * r;
}

__attribute__ ((differentiable))
void
project (int n, const double *w, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = s * w[i];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -1, 1);
  double *xo = tg_dup (x, n);
  layernorm_orig (n, xo);
  layernorm (n, x, y);
  CHECK_SAME (y, xo, n * sizeof *y);
  TG_GRADCHECK (layernorm, &n, x, y);
  memcpy (xo, x, n * sizeof *x);
  project_orig (n, w, xo);
  project (n, w, x, y);
  CHECK_SAME (y, xo, n * sizeof *y);
  TG_GRADCHECK (project, &n, w, x, y);
  return tg_exit ();
}
