/* { dg-do run } */
/* Issue 12: y[i] = sin (B12) where each level B(k) = B(k-1) * 0.5 +
   B(k-1) * 0.25 uses the one below twice: a tree of 2^12 loads of x[i],
   a DAG of a few dozen nodes, which the gradient is built from (each
   shared level computed once).  B12 = 0.75^12 x[i] = a x[i], so
   d_x[i] += d_y[i] * a * cos (a x[i]).  TG_GRADCHECK checks every d_x[i]
   against central differences, accumulation into d_x, and that x, y and
   d_y are untouched; then every d_x[i] against the formula.  */

#include <math.h>
#include "tg-test.h"

#define B1 (x[i] * 0.5 + x[i] * 0.25)
#define B2 (B1 * 0.5 + B1 * 0.25)
#define B3 (B2 * 0.5 + B2 * 0.25)
#define B4 (B3 * 0.5 + B3 * 0.25)
#define B5 (B4 * 0.5 + B4 * 0.25)
#define B6 (B5 * 0.5 + B5 * 0.25)
#define B7 (B6 * 0.5 + B6 * 0.25)
#define B8 (B7 * 0.5 + B7 * 0.25)
#define B9 (B8 * 0.5 + B8 * 0.25)
#define B10 (B9 * 0.5 + B9 * 0.25)
#define B11 (B10 * 0.5 + B10 * 0.25)
#define B12 (B11 * 0.5 + B11 * 0.25)

__attribute__ ((differentiable))
void
shared12 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sin (B12);
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n);
  /* a x spans about [-3, 3]: cos changes sign in the range.  */
  tg_fill (x, n, 1, -90, 90);
  tg_fill (c, n, 2, -1, 1);
  TG_GRADCHECK (shared12, &n, x, y);

  /* The closed form: d_x[i] = d_y[i] a cos (a x[i]), a = 0.75^12.  */
  shared12 (n, x, y);
  shared12_grad (n, x, y, d_x, c);
  double a = pow (0.75, 12);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (d_x[i], c[i] * a * cos (a * x[i]), TG_RTOL, TG_ATOL, i);
  return tg_exit ();
}
