/* { dg-do run } */
/* { dg-options "-fsanitize-recover=undefined" } */
/* UBSan's checks with recovery (ubsan.exp's -fno-sanitize-recover
   undone): each handler returns, so the block that calls it falls
   through to the code after the check, inside the loops around it.  A
   local VLA, an index through hs = C / NH and a tile bound with shifts.

   head_sq: per head h of hs = C / NH channels, scratch q[hs] (a VLA)
       = x[h*hs + j]^2, y[h] = sum_j q[j] / (1 + q[j]):
     d_x[h*hs + j] += d_y[h] 2 x / (1 + x^2)^2.
   pairs: pairs up to (M >> 1) << 1, y[i] = x[i] x[i+1] for even i and
       y[i] = x[i] x[i-1] for odd i:  d_x[i] += (d_y[i] + d_y[i^1]) x[i^1]
       (the pair's other element, i^1).
   Each is checked through its descriptor; then the forward, called with
   a C of 0 (a VLA of bound 0) and with a negative M, must report and go
   on.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
head_sq (int C, int NH, const double *x, double *y)
{
  int hs = C / NH;
  for (int h = 0; h < NH; h++)
    {
      double q[hs];
      for (int j = 0; j < hs; j++)
	q[j] = x[h * hs + j] * x[h * hs + j];
      double s = 0;
      for (int j = 0; j < hs; j++)
	s += q[j] / (1 + q[j]);
      y[h] = s;
    }
}

__attribute__ ((differentiable))
void
pairs (int M, const double *x, double *y)
{
  for (int i = 0; i < (M >> 1) << 1; i += 2)
    {
      y[i] = x[i] * x[i + 1];
      y[i + 1] = x[i + 1] * x[i];
    }
}

TG_DECLARE_GRADCHECK (head_sq);
TG_DECLARE_GRADCHECK (pairs);

static void
negative_size (void)
{
  double x[1] = { 0 }, y[1];
  volatile int m = -3;
  pairs (m, x, y);
}

static void
empty_heads (void)
{
  double x[1] = { 0 }, y[2];
  volatile int c = 0;
  head_sq (c, 2, x, y);
}

int
main (void)
{
  int C = 6, NH = 3;
  double *x = tg_alloc (C), *y = tg_alloc (NH);
  tg_fill (x, C, 1, -2, 2);
  TG_GRADCHECK (head_sq, &C, &NH, x, y);
  int M = 7;
  double *xm = tg_alloc (M), *ym = tg_alloc (M);
  tg_fill (xm, M, 2, -2, 2);
  TG_GRADCHECK (pairs, &M, xm, ym);

  CHECK (tg_child_reports (negative_size, "left shift of negative value", 1));
  CHECK (tg_child_reports (empty_heads, "variable length array bound "
					"evaluates to non-positive value 0", 1));
  free (x), free (y), free (xm), free (ym);
  return tg_exit ();
}
