/* { dg-do run } */
/* A static kernel gets a static gradient (and a descriptor, here
   declared by TG_GRADCHECK in main): y[i] = x[i] * w[i] + w[i], 1-D.
   d_x += d_y w; d_w += d_y (x + 1).  TG_GRADCHECK checks every d_x and
   d_w against central differences, accumulation into the shadows, and
   that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static void
mul_add (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * w[i] + w[i];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  TG_GRADCHECK (mul_add, &n, x, w, y);
  return tg_exit ();
}
