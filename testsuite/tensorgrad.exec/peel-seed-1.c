/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Recurrences seeded by their own loop's first iteration through a
   conditional: y[i] = i == 0 ? x[0] : y[i-1] + x[i] (a prefix sum), and a
   filter per row, z[r][t] = t == 0 ? x[r][0] : a z[r][t-1] + x[r][t].
   The first iteration gets a statement of its own (peel.c), so the loop
   reads only what earlier iterations wrote (it was refused: the read of
   element -1 is in the arm the first iteration does not take).  Checks
   d_x and d_a against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prefix (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i == 0 ? x[0] : y[i - 1] + x[i];
}

__attribute__ ((differentiable))
void
rows (int R, int T, double a, const double *x, double *z)
{
  for (int r = 0; r < R; r++)
    for (int t = 0; t < T; t++)
      z[r * T + t] = t == 0 ? x[r * T] : a * z[r * T + t - 1] + x[r * T + t];
}

/* { dg-final { scan-tensorgrad-dump-times "peel: the first iteration of the loop writing" 2 } } */

enum { R = 2, T = 4, S = R * T };

struct ctx
{
  double *x, *y, *w, a;
  int which;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  if (k->which == 0)
    prefix (S, k->x, k->y);
  else
    rows (R, T, k->a, k->x, k->y);
  double s = 0;
  for (int i = 0; i < S; i++)
    s += k->w[i] * sin (k->y[i]);
  return s;
}

int
main (void)
{
  double x[S], y[S], w[S], d_x[S], d_y[S];
  tg_fill (x, S, 1, -1, 1);
  tg_fill (w, S, 2, -1, 1);
  struct ctx k = { x, y, w, 0.8, 0 };
  for (int f = 0; f < 2; f++)
    {
      k.which = f;
      loss (&k);
      for (int i = 0; i < S; i++)
	{
	  d_x[i] = 0;
	  d_y[i] = w[i] * cos (y[i]);
	}
      double d_a = 0;
      if (f == 0)
	prefix_grad (S, x, y, d_x, d_y);
      else
	rows_grad (R, T, k.a, x, y, &d_a, d_x, d_y);
      tg_fd_check ("x", x, S, loss, &k, d_x, TG_RTOL, TG_ATOL);
      if (f == 1)
	{
	  double e = 1e-6, lp, lm;
	  k.a += e;
	  lp = loss (&k);
	  k.a -= 2 * e;
	  lm = loss (&k);
	  k.a += e;
	  CHECK_NEAR (d_a, (lp - lm) / (2 * e), 1e-6, 1e-7);
	}
    }
  return tg_exit ();
}
