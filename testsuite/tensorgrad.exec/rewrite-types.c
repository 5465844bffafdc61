/* { dg-do run } */
/* How to rewrite (README): data of a type the kernel may not compute
   with.  The rewrites of tensorgrad.err/rewrite-types.c: reverse indexes
   x by the position itself, n - 1 - i (an integer table the caller
   fills would do too, as an input); the mask is not differentiable and
   comes from a plain function beside the kernel (relu_mask_ints), the
   kernel computing only y; dot accumulates in double (the kernel
   computes in its own floating types, float and double).  Checked: the
   results equal the originals' (compiled here as plain C; the long
   double sum to rounding), and the gradients through the
   descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define reverse reverse_orig
#define relu_mask relu_mask_orig
#define dot_ld dot_ld_orig
#include "tensorgrad.err/rewrite-types.c"
#undef reverse
#undef relu_mask
#undef dot_ld
#undef differentiable

__attribute__ ((differentiable))
void
reverse (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[n - 1 - i];
}

__attribute__ ((differentiable))
void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0;
}

static void
relu_mask_ints (int n, const double *x, int *mask)
{
  for (int i = 0; i < n; i++)
    mask[i] = x[i] > 0;
}

__attribute__ ((differentiable))
double
dot (int n, const double *x, const double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *w = tg_alloc (n);
  double *y = tg_alloc (n), *y0 = tg_alloc (n);
  int mask[6], mask0[6];
  tg_fill_away (x, n, 1, -1, 1, 0, 0.05);
  tg_fill (w, n, 2, -1, 1);
  reverse_orig (n, x, y0);
  reverse (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (reverse, &n, x, y);
  relu_mask_orig (n, x, y0, mask0);
  relu (n, x, y);
  relu_mask_ints (n, x, mask);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (mask, mask0, sizeof mask);
  TG_GRADCHECK (relu, &n, x, y);
  CHECK_NEAR (dot (n, x, w), dot_ld_orig (n, x, w), 1e-15, 1e-16);
  TG_GRADCHECK (dot, &n, x, w);
  return tg_exit ();
}
