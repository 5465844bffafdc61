/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An activation applied in place, y[i] = tanh (y[i]): y is in-out, and
   the adjoint of its entry value, d_y (1 - tanh (entry)^2), needs no
   entry value, since the forward left tanh (entry) in y: the gradient
   reads y's final values (reuse), where it would otherwise be refused.
   On its own (d_y in: the adjoint of the final y; out: that of the entry
   y): d_y = d_y (1 - y^2) with y the final values.  And inlined into a
   two-layer network that applies it in place to its hidden temporary:
   with a = tanh (W x), o = v . a, r = o^2 and e[j] = 2 o d_r v[j]
   (1 - a[j]^2): d_v += 2 o d_r a; d_W[j*n+i] += e[j] x[i];
   d_x[i] += sum_j e[j] W[j*n+i].  TG_GRADCHECK checks both against central
   differences, accumulation, and that the inputs (and act's final y) are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
act (int n, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (y[i]);
}

__attribute__ ((differentiable))
double
net (int n, int h, const double *x, const double *W, const double *v)
{
  double t[32];
  for (int j = 0; j < h; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += W[j * n + i] * x[i];
      t[j] = s;
    }
  act (h, t);
  double o = 0;
  for (int j = 0; j < h; j++)
    o += v[j] * t[j];
  return o * o;
}

/* { dg-final { scan-tensorgrad-dump "reuse: tanh \\(y\\\[i\\\]\\) is y\\\[i\\\]" } } */

enum { N = 4, H = 6 };

int
main (void)
{
  int n = N, h = H;
  double x[N], W[H * N], v[H], y[H];
  tg_fill (x, N, 1, -1, 1);
  tg_fill (W, H * N, 2, -0.7, 0.7);
  tg_fill (v, H, 3, -1, 1);
  tg_fill (y, H, 4, -1.5, 1.5);
  /* act alone: in-out y, d_y from the adjoint of the final to that of
     the entry value.  */
  TG_GRADCHECK (act, &h, y);
  TG_GRADCHECK (net, &n, &h, x, W, v);
  return tg_exit ();
}
