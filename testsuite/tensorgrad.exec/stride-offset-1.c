/* { dg-do run } */
/* Strided, offset reads of two inputs with different strides, 1-D of
   run-time length n = 5: x holds 2n values, w 3n,
   y[i] = w[3*i+2] * sin (x[2*i+1]).
   d_x[2i+1] += d_y w[3i+2] cos x[2i+1]; d_w[3i+2] += d_y sin x[2i+1];
   the elements read by no iteration (x[2i], w[3i], w[3i+1]) get nothing.
   TG_GRADCHECK checks every d_x and d_w against central differences (so the
   unread ones against 0), accumulation into the shadows, and that x, w, y,
   d_y are untouched; then that the unread ones keep their pre-fill
   exactly.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stride_offset (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = w[3 * i + 2] * sin (x[2 * i + 1]);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (2 * n), *w = tg_alloc (3 * n), *y = tg_alloc (n);
  tg_fill (x, 2 * n, 1, -2, 2);
  tg_fill (w, 3 * n, 2, -2, 2);
  TG_GRADCHECK (stride_offset, &n, x, w, y);

  /* The unread elements keep their pre-fill exactly.  */
  double *c = tg_alloc (n), *d_x = tg_alloc (2 * n), *d_w = tg_alloc (3 * n);
  tg_fill (c, n, 3, -1, 1);
  tg_fill (d_x, 2 * n, 4, -1, 1);
  tg_fill (d_w, 3 * n, 5, -1, 1);
  double *pre_x = tg_dup (d_x, 2 * n), *pre_w = tg_dup (d_w, 3 * n);
  stride_offset (n, x, w, y);
  stride_offset_grad (n, x, w, y, d_x, d_w, c);
  for (int i = 0; i < n; i++)
    {
      CHECK_AT (d_x[2 * i] == pre_x[2 * i], i);
      CHECK_AT (d_w[3 * i] == pre_w[3 * i], i);
      CHECK_AT (d_w[3 * i + 1] == pre_w[3 * i + 1], i);
    }
  return tg_exit ();
}
