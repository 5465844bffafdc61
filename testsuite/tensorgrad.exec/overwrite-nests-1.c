/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Arrays that a later loop nest overwrites, every element again: each
   earlier version gets an array of its own in the gradient's program
   (lib/passes/version.c), which the gradient recomputes.
     stage:  t = exp (x);  y = 2 t;  t = t * t + x;  z = sin (t) * t
       (a local array, read between its two versions, both of which stay
       arrays: exp and sin are not repeated by fusion);
     three versions of an output: w = x; w = 3 w + x * x; w = tanh (w) * w.
   Gradients: stages, with t0 = exp (x),
   t1 = t0^2 + x and s = d_z (t1 cos t1 + sin t1):
   d_x += (2 d_y + 2 t0 s) t0 + s; three, with w1 = 3 x + x^2:
   d_x += d_w (tanh w1 + w1 (1 - tanh^2 w1)) (3 + 2 x).  TG_GRADCHECK checks
   d_x against central differences for each kernel, accumulation into d_x,
   and that the outputs and their shadows are unchanged by the gradient.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stages (int n, const double *x, double *y, double *z)
{
  double t[32];
  for (int i = 0; i < n; i++)
    t[i] = exp (x[i]);
  for (int i = 0; i < n; i++)
    y[i] = 2 * t[i];
  for (int i = 0; i < n; i++)
    t[i] = t[i] * t[i] + x[i];
  for (int i = 0; i < n; i++)
    z[i] = sin (t[i]) * t[i];
}

__attribute__ ((differentiable))
void
three (int n, const double *x, double *w)
{
  for (int i = 0; i < n; i++)
    w[i] = x[i];
  for (int i = 0; i < n; i++)
    w[i] = 3 * w[i] + x[i] * x[i];
  for (int i = 0; i < n; i++)
    w[i] = tanh (w[i]) * w[i];
}

/* { dg-final { scan-tensorgrad-dump "version: t, written again by a later loop nest, keeps the values of the earlier one in t.v1" } } */
/* { dg-final { scan-tensorgrad-dump "version: w, written again by a later loop nest, keeps the values of the earlier one in w.v2" } } */

enum { N = 9 };

int
main (void)
{
  int n = N;
  double x[N], y[N] = { 0 }, z[N] = { 0 };
  tg_fill (x, N, 1, -1, 1);
  TG_GRADCHECK (stages, &n, x, y, z);
  TG_GRADCHECK (three, &n, x, y);
  return tg_exit ();
}
