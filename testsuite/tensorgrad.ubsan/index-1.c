/* { dg-do run } */
/* Integer index arithmetic under -fsanitize=undefined
   -fno-sanitize-recover (ubsan.exp): the C front end checks hs = C / NH
   for a zero divisor and INT_MIN / -1, and the shifts of a tile bound,
   each a branch to a noreturn handler; the shift's check splits the
   loop's header, so its exit test is no longer in the header's block.
   The plugin reads past the checks; the forward keeps them.

   heads: per row t and head h of hs = C / NH channels,
       s = 1 + sum_j x[t*C + h*hs + j]^2, y[...j] = x[...j] / s:
     d_x[k] += d_y[k] / s - 2 x[k] (sum_j d_y[j] x[j]) / s^2 (same head).
   tiles: tiles of 4 up to (M >> 2) << 2, then the remainder:
       y[i] = 2 x[i] in the tiles, 3 x[i] after:  d_x[i] += 2 or 3 d_y[i].
   Each is checked through its descriptor; then the forward, called with
   NH = 0 and with a negative M, must stop on UBSan's report.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
heads (int T, int C, int NH, const double *x, double *y)
{
  int hs = C / NH;
  for (int t = 0; t < T; t++)
    for (int h = 0; h < NH; h++)
      {
	double s = 1;
	for (int j = 0; j < hs; j++)
	  s += x[t * C + h * hs + j] * x[t * C + h * hs + j];
	for (int j = 0; j < hs; j++)
	  y[t * C + h * hs + j] = x[t * C + h * hs + j] / s;
      }
}

__attribute__ ((differentiable))
void
tiles (int M, const double *x, double *y)
{
  int i;
  for (i = 0; i < (M >> 2) << 2; i += 4)
    for (int r = 0; r < 4; r++)
      y[i + r] = 2 * x[i + r];
  for (; i < M; i++)
    y[i] = 3 * x[i];
}

TG_DECLARE_GRADCHECK (heads);
TG_DECLARE_GRADCHECK (tiles);

/* Sizes the forward's checks stop at.  */
static void
no_heads (void)
{
  double x[4] = { 0 }, y[4];
  volatile int nh = 0;
  heads (1, 4, nh, x, y);
}

static void
negative_size (void)
{
  double x[1] = { 0 }, y[1];
  volatile int m = -3;
  tiles (m, x, y);
}

int
main (void)
{
  int T = 3, C = 6, NH = 2;
  double *x = tg_alloc (T * C), *y = tg_alloc (T * C);
  tg_fill (x, T * C, 1, -1.5, 1.5);
  TG_GRADCHECK (heads, &T, &C, &NH, x, y);

  for (int M = 0; M <= 11; M++)
    {
      double *xm = tg_alloc (M + 1), *ym = tg_alloc (M + 1);
      tg_fill (xm, M + 1, 2 + M, -1, 1);
      TG_GRADCHECK (tiles, &M, xm, ym);
      free (xm), free (ym);
    }

  CHECK (tg_child_reports (no_heads, "division by zero", 0));
  CHECK (tg_child_reports (negative_size, "left shift of negative value", 0));
  free (x), free (y);
  return tg_exit ();
}
