/* { dg-do run } */
/* A NULL input shadow means that gradient is not wanted: y[i] = x[i] *
   exp (w[i]).  f_grad (..., NULL, d_w, d_y) must compute d_w (and not
   crash); f_grad (..., d_x, NULL, d_y) must compute d_x; with both NULL
   it writes nothing.
   d_x += d_y exp (w); d_w += d_y y.  TG_GRADCHECK checks d_x and d_w
   with every shadow, then TG_GRADCHECK_NULL with d_x, d_w and both NULL:
   each time the remaining one against central differences, accumulation,
   and that x, w, y, d_y are untouched.  */

#include <math.h>
#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
xexpw (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * exp (w[i]);
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -1, 1);
  TG_GRADCHECK (xexpw, &n, x, w, y);
  /* Only d_w, only d_x, neither.  */
  TG_GRADCHECK_NULL (xexpw, "x", &n, x, w, y);
  TG_GRADCHECK_NULL (xexpw, "w", &n, x, w, y);
  TG_GRADCHECK_NULL (xexpw, "x w", &n, x, w, y);
  return tg_exit ();
}
