/* { dg-do run } */
/* How to rewrite (README): an array read as another element type.  The
   rewrite of tensorgrad.err/rewrite-pointer-type.c: the parameter is a
   pointer to float, so its shadow is one too; the caller casts its
   buffer where it calls the kernel.  Checked: y equals the original's
   (compiled here as plain C) on the same bytes, and the gradient
   through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define widen widen_orig
#include "tensorgrad.err/rewrite-pointer-type.c"
#undef widen
#undef differentiable

__attribute__ ((differentiable))
void
widen (int n, const float *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

int
main (void)
{
  int n = 6;
  float *x = tg_alloc_f (n);
  double *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill_f (x, n, 1, -1, 1);
  widen_orig (n, (const double *) (const void *) x, y0);
  widen (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (widen, &n, x, y);
  return tg_exit ();
}
