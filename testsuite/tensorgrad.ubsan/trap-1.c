/* { dg-do run } */
/* { dg-options "-fsanitize-undefined-trap-on-error" } */
/* UBSan's checks as traps: each check's block calls __builtin_trap (),
   which does not return, in place of a handler.  A local VLA, an index
   through hs = C / NH and a tile bound with shifts.

   head_sq: per head h of hs = C / NH channels, scratch q[hs] (a VLA)
       = x[h*hs + j]^2, y[h] = sum_j q[j] / (1 + q[j]):
     d_x[h*hs + j] += d_y[h] 2 x / (1 + x^2)^2.
   pairs: pairs up to (M >> 1) << 1, y[i] = x[i] x[i+1] for even i and
       y[i] = x[i] x[i-1] for odd i:  d_x[i] += (d_y[i] + d_y[i^1]) x[i^1]
       (the pair's other element, i^1).
   Each is checked through its descriptor; then the forward, called with
   a C of 0 (a VLA of bound 0) and with a negative M, must trap: die of
   SIGILL (x86's ud2) or SIGTRAP (other targets' trap instructions).  */

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

/* Did a child with wait status STATUS die of a trap instruction?  */
static int
trapped (int status)
{
  return status != -1 && WIFSIGNALED (status)
	 && (WTERMSIG (status) == SIGILL || WTERMSIG (status) == SIGTRAP);
}

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

  char buf[256];
  CHECK (trapped (tg_child_run (negative_size, buf, sizeof buf)));
  CHECK (trapped (tg_child_run (empty_heads, buf, sizeof buf)));
  free (x), free (y), free (xm), free (ym);
  return tg_exit ();
}
