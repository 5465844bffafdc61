/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Recurrences through a scalar the loop carries, stored every iteration,
   as C programmers write running values: a cumulative product
   (p *= x[i]; y[i] = p), a first-order filter with scalar coefficients
   (s = a s + b sin x[i]), a running value reset per row from an input
   (s = c[i], then y = s; s = s / 2 + x), and an accumulator never reset
   across rows (s += row sums; y[i] = s).  Each becomes an array with one
   element per iteration and one more (lift-value.cc, expand_scalar), a
   recurrence through a tensor.  Gradients:
     cumprod: d_x[i] += sum_{k>=i} d_y[k] y[k] / x[i];
     iir: with e[i] = 2 s_i d_y[i] + a e[i+1] (e[n] = 0), the adjoint of
       s_i: d_x[i] += e[i] b cos x[i]; *d_b += sum e[i] sin x[i];
       *d_a += sum e[i] s_{i-1};
     rowrun: with s_0 = c[i], s_{j+1} = s_j / 2 + x[i*m+j], the adjoint
       of s_j is sum_{k>=j} 2^(j-k) d_y[i*m+k]; d_x[i*m+j] gets that of
       s_{j+1}, d_c[i] that of s_0;
     running: d_x[i*m+j] += sum_{k>=i} d_y[k].
   TG_GRADCHECK checks every gradient against central differences,
   accumulation into the shadows, and that the inputs, y and d_y are
   untouched.  */

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

int
main (void)
{
  int s = S, n = N, m = M;
  double x[S], c[N], y[S] = { 0 }, a = 0.7, b = 1.3;
  tg_fill (x, S, 1, 0.3, 1.2);
  tg_fill (c, N, 2, -1, 1);
  TG_GRADCHECK (cumprod, &s, x, y);
  TG_GRADCHECK (iir, &s, &a, &b, x, y);
  TG_GRADCHECK (rowrun, &n, &m, x, c, y);
  TG_GRADCHECK (running, &n, &m, x, y);
  return tg_exit ();
}
