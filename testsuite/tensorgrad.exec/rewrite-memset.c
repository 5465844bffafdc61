/* { dg-do run } */
/* How to rewrite (README): memset and memcpy that are no stores of
   whole floating elements.  The rewrites of tensorgrad.err/rewrite-memset.c:
   clear_add clears n elements, n * sizeof *y bytes; ones_add stores the
   value 1 its memset meant (byte 1 makes every float 2.4e-38, not 1);
   widen converts each float (its memcpy copied the bytes of 2n floats
   into n doubles); delay stores y[0] and reads the shifted element for
   the others (not as one select over all i, i > 0 ? x[i - 1] * x[i - 1]
   : 0, whose gradient today reaches d_x[-1]: -fplugin-arg-tensorgrad-check
   says "index -1 out of the bounds of 'd_x'"); cleared uses y, not what
   memset returns.  Checked: clear_add, delay and cleared equal
   the originals (compiled here as plain C), ones_add and widen their
   formulas, and the gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define clear_add clear_add_orig
#define ones_add ones_add_orig
#define widen widen_orig
#define delay delay_orig
#define cleared cleared_orig
#include "tensorgrad.err/rewrite-memset.c"
#undef clear_add
#undef ones_add
#undef widen
#undef delay
#undef cleared
#undef differentiable

__attribute__ ((differentiable))
void
clear_add (int n, const float *x, float *y)
{
  memset (y, 0, n * sizeof *y);
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

__attribute__ ((differentiable))
void
ones_add (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 1 + x[i];
}

__attribute__ ((differentiable))
void
widen (int n, const float *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

__attribute__ ((differentiable))
void
delay (int n, const double *x, double *y)
{
  y[0] = 0;
  for (int i = 1; i < n; i++)
    y[i] = x[i - 1] * x[i - 1];
}

__attribute__ ((differentiable))
void
cleared (int n, const double *x, double *y)
{
  memset (y, 0, n * sizeof *y);
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

int
main (void)
{
  int n = 5;
  float *xf = tg_alloc_f (n), *yf = tg_alloc_f (n), *yf0 = tg_alloc_f (n);
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill_f (xf, n, 1, -1, 1);
  tg_fill (x, n, 2, -1, 1);
  tg_fill_f (yf, n, 3, -1, 1);
  clear_add_orig (n, xf, yf0); /* yf0 was zero: the bytes it left are too */
  clear_add (n, xf, yf);
  CHECK_SAME (yf, yf0, n * sizeof *yf);
  TG_GRADCHECK (clear_add, &n, xf, yf);
  ones_add (n, xf, yf);
  for (int i = 0; i < n; i++)
    CHECK_AT (yf[i] == 1 + xf[i], i);
  TG_GRADCHECK (ones_add, &n, xf, yf);
  widen (n, xf, y);
  for (int i = 0; i < n; i++)
    CHECK_AT (y[i] == 2.0 * xf[i], i);
  TG_GRADCHECK (widen, &n, xf, y);
  delay_orig (n, x, y0);
  delay (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (delay, &n, x, y);
  cleared_orig (n, x, y0);
  cleared (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (cleared, &n, x, y);
  return tg_exit ();
}
