/* { dg-do run } */
/* How to rewrite (README): constant tables the plugin cannot read.  The
   rewrites of tensorgrad.err/rewrite-tables.c: poly's coefficients are
   defined in this file (static const, with their initializer), the
   multipliers are a table of int, and the large table is a parameter
   (an input: its shadow d_table gets its gradient, or is NULL when it is
   not wanted).  Checked: the results equal the originals' (compiled here as
   plain C, coef defined here as the other file would), and the
   gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define poly poly_orig
#define channels channels_orig
#define lookup lookup_orig
#define coef coef_other
#define mult mult_char
#include "tensorgrad.err/rewrite-tables.c"
#undef poly
#undef channels
#undef lookup
#undef coef
#undef mult
#undef differentiable

const double coef_other[4] = { 0.5, -1.0, 0.25, 2.0 };

static const double coef[4] = { 0.5, -1.0, 0.25, 2.0 };

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = coef[0] + x[i] * (coef[1] + x[i] * (coef[2] + x[i] * coef[3]));
}

static const int mult[4] = { 1, -2, 3, -1 };

__attribute__ ((differentiable))
void
channels (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 4; c++)
      y[i * 4 + c] = mult[c] * x[i * 4 + c];
}

__attribute__ ((differentiable))
void
lookup (int n, const float *table, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = table[i] * x[i];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n * 4), *y = tg_alloc (n * 4), *y0 = tg_alloc (n * 4);
  tg_fill (x, n * 4, 1, -1, 1);
  poly_orig (n, x, y0);
  poly (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (poly, &n, x, y);
  channels_orig (n, x, y0);
  channels (n, x, y);
  CHECK_SAME (y, y0, n * 4 * sizeof *y);
  TG_GRADCHECK (channels, &n, x, y);
  float *xf = tg_alloc_f (n), *yf = tg_alloc_f (n), *yf0 = tg_alloc_f (n);
  tg_fill_f (xf, n, 2, -1, 1);
  lookup_orig (n, xf, yf0);
  lookup (n, lut, xf, yf);
  CHECK_SAME (yf, yf0, n * sizeof *yf);
  float *tab = tg_dup_f (lut, n);
  TG_GRADCHECK (lookup, &n, tab, xf, yf);
  return tg_exit ();
}
