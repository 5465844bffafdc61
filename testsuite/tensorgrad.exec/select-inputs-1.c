/* { dg-do run } */
/* A ternary whose condition compares two inputs and whose arms are
   different expressions of both, 1-D:
   y[i] = x[i] > w[i] ? x[i] * w[i] : x[i] - 2 * w[i].
   d_x += d_y (x > w ? w : 1); d_w += d_y (x > w ? x : -2).  With |x - w|
   at least 1e-3 TG_GRADCHECK checks every d_x and d_w against central
   differences, accumulation into the shadows, and that x, w, y, d_y are
   untouched; then, exactly, a tie x == w takes the else arm.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
pick (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > w[i] ? x[i] * w[i] : x[i] - 2 * w[i];
}

int
main (void)
{
  int n = 11;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  for (int i = 0; i < n; i++)
    if (fabs (x[i] - w[i]) < 1e-3)
      w[i] -= 0.2;
  TG_GRADCHECK (pick, &n, x, w, y);

  /* A tie takes the else arm.  */
  double *c = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  double *pre_x = tg_alloc (n), *pre_w = tg_alloc (n);
  tg_fill (c, n, 3, -1, 1);
  tg_fill (pre_x, n, 4, -1, 1);
  tg_fill (pre_w, n, 5, -1, 1);
  memcpy (d_x, pre_x, n * sizeof *d_x);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  w[3] = x[3];
  pick (n, x, w, y);
  pick_grad (n, x, w, y, d_x, d_w, c);
  CHECK (d_x[3] == pre_x[3] + c[3]);
  CHECK (d_w[3] == pre_w[3] + -2 * c[3]);
  return tg_exit ();
}
