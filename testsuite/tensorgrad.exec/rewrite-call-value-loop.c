/* { dg-do run } */
/* How to rewrite (README): a kernel that returns a value, called in a
   loop.  The rewrite of tensorgrad.err/rewrite-call-value-loop.c: dot
   stores its result in out[0], and the loop passes it y + b; the call
   is inlined into matvec's gradient, loop and all.  Checked: y equals
   the original's (compiled here as plain C), and both gradients through
   their descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define dot dot_orig
#define matvec matvec_orig
#include "tensorgrad.err/rewrite-call-value-loop.c"
#undef dot
#undef matvec
#undef differentiable

__attribute__ ((differentiable))
void
dot (int n, const double *x, const double *y, double *out)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  out[0] = s;
}

__attribute__ ((differentiable))
void
matvec (int B, int n, const double *x, const double *w, double *y)
{
  for (int b = 0; b < B; b++)
    dot (n, x + b * n, w, y + b);
}

int
main (void)
{
  int B = 3, n = 4;
  double *x = tg_alloc (B * n), *w = tg_alloc (n);
  double *y = tg_alloc (B), *y0 = tg_alloc (B), *o = tg_alloc (1);
  tg_fill (x, B * n, 1, -1, 1);
  tg_fill (w, n, 2, -1, 1);
  matvec_orig (B, n, x, w, y0);
  matvec (B, n, x, w, y);
  CHECK_SAME (y, y0, B * sizeof *y);
  TG_GRADCHECK (matvec, &B, &n, x, w, y);
  TG_GRADCHECK (dot, &n, x, w, o);
  return tg_exit ();
}
