/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Recurrences through a scalar the loop carries, stored every iteration,
   as C programmers write running values: a cumulative product
   (p *= x[i]; y[i] = p), a first-order filter with scalar coefficients
   (s = a s + b sin x[i]), a running value reset per row from an input
   (s = c[i], then y = s; s = s / 2 + x), and an accumulator never reset
   across rows (s += row sums; y[i] = s).  Each becomes an array with one
   element per iteration and one more (lift-value.cc, expand_scalar), a
   recurrence through a tensor.  Checks every gradient against central
   differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cumprod (int n, const double *x, double *y)
{
  double p = 1;
  for (int i = 0; i < n; i++)
    {
      p *= x[i];
      y[i] = p;
    }
}

__attribute__ ((differentiable))
void
iir (int n, double a, double b, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      s = a * s + b * sin (x[i]);
      y[i] = s * s;
    }
}

__attribute__ ((differentiable))
void
rowrun (int n, int m, const double *x, const double *c, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = c[i];
      for (int j = 0; j < m; j++)
	{
	  y[i * m + j] = s;
	  s = 0.5 * s + x[i * m + j];
	}
    }
}

__attribute__ ((differentiable))
void
running (int n, int m, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	s += x[i * m + j];
      y[i] = s;
    }
}

/* The running product as an array: its entry value, then one element per
   iteration.  */
/* { dg-final { scan-tensorgrad-dump "p\\\[0\\\] = 1;\n  stage 1: for i < n:\n    p\\\[1 \\+ i\\\] = p\\\[i\\\] \\* x\\\[i\\\];" } } */

enum { N = 2, M = 3, S = N * M };

struct ctx
{
  double *x, *c, *y, *w, a, b;
  int which;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  switch (k->which)
    {
    case 0:
      cumprod (S, k->x, k->y);
      break;
    case 1:
      iir (S, k->a, k->b, k->x, k->y);
      break;
    case 2:
      rowrun (N, M, k->x, k->c, k->y);
      break;
    default:
      running (N, M, k->x, k->y);
      return tg_dot (k->w, k->y, N);
    }
  return tg_dot (k->w, k->y, S);
}

int
main (void)
{
  double x[S], c[N], y[S], w[S], d_x[S], d_c[N];
  tg_fill (x, S, 1, 0.3, 1.2);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (w, S, 3, -1, 1);
  struct ctx k = { x, c, y, w, 0.7, 1.3, 0 };
  for (int f = 0; f < 4; f++)
    {
      k.which = f;
      double d_a = 0, d_b = 0;
      for (int i = 0; i < S; i++)
	d_x[i] = 0;
      d_c[0] = d_c[1] = 0;
      loss (&k);
      if (f == 0)
	cumprod_grad (S, x, y, d_x, w);
      else if (f == 1)
	iir_grad (S, k.a, k.b, x, y, &d_a, &d_b, d_x, w);
      else if (f == 2)
	rowrun_grad (N, M, x, c, y, d_x, d_c, w);
      else
	running_grad (N, M, x, y, d_x, w);
      tg_fd_check ("x", x, S, loss, &k, d_x, TG_RTOL, TG_ATOL);
      if (f == 2)
	tg_fd_check ("c", c, N, loss, &k, d_c, TG_RTOL, TG_ATOL);
      if (f == 1)
	{
	  double e = 1e-6, lp, lm;
	  k.a += e;
	  lp = loss (&k);
	  k.a -= 2 * e;
	  lm = loss (&k);
	  k.a += e;
	  CHECK_NEAR (d_a, (lp - lm) / (2 * e), 1e-6, 1e-7);
	  k.b += e;
	  lp = loss (&k);
	  k.b -= 2 * e;
	  lm = loss (&k);
	  k.b += e;
	  CHECK_NEAR (d_b, (lp - lm) / (2 * e), 1e-6, 1e-7);
	}
    }
  return tg_exit ();
}
