/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Scalars a loop carries that are no reduction, whose values after the
   loop are used: the gradient keeps them on a tape, one value per
   iteration, and runs the loop backwards.
   horner:  p = c[n-1]; p = p x + c[i] counting down to i = 0:
            d_x += d_ret p'(x), d_c[i] += d_ret x^i.
   euler:   explicit Euler of a damped oscillator over T steps, v and x
            coupled (v += dt (-k x - c v); x += dt v), differentiated
            with respect to k, c, dt and the initial state x0.
   decay:   float, a per-row state carried across the columns of each
            row (h = a h^2 + x[r][j]; y[r] = h), the loop inside an outer
            one.
   mixed:   summed in one arm of an if/else, multiplied in the other: no
            one reduction, a recurrence s = x > 0 ? s + x : s x.  */

#include "tg-test.h"

__attribute__ ((differentiable))
double
horner (int n, double x, const double *c)
{
  double p = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    p = p * x + c[i];
  return p;
}

__attribute__ ((differentiable))
void
euler (int T, double dt, double k, double c, const double *x0, double *out)
{
  double x = x0[0], v = x0[1];
  for (int t = 0; t < T; t++)
    {
      v += dt * (-k * x - c * v);
      x += dt * v;
    }
  out[0] = x;
  out[1] = v;
}

__attribute__ ((differentiable))
void
decay (int R, int m, float a, const float *x, float *y)
{
  for (int r = 0; r < R; r++)
    {
      float h = 0.5f;
      for (int j = 0; j < m; j++)
        h = a * h * h + x[r * m + j];
      y[r] = h;
    }
}

__attribute__ ((differentiable))
double
mixed (int n, const double *x)
{
  double s = 1;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      s += x[i];
    else
      s *= x[i];
  return s;
}

int
main (void)
{
  int n = 6;
  double x = 0.8;
  double *c = tg_alloc (n);
  tg_fill (c, n, 1, -1, 1);
  TG_GRADCHECK (horner, &n, &x, c);

  int T = 25;
  double dt = 0.05, k = 2.0, damp = 0.3;
  double *x0 = tg_alloc (2), *out = tg_alloc (2);
  x0[0] = 1.0;
  x0[1] = -0.25;
  TG_GRADCHECK (euler, &T, &dt, &k, &damp, x0, out);

  int R = 3, m = 5;
  float a = 0.4f;
  float *xs = tg_alloc_f (R * m), *y = tg_alloc_f (R);
  tg_fill_f (xs, R * m, 2, -0.5, 0.5);
  TG_GRADCHECK (decay, &R, &m, &a, xs, y);

  double *z = tg_alloc (n);
  tg_fill_away (z, n, 3, -1.5, 1.5, 0.0, 0.1);
  TG_GRADCHECK (mixed, &n, z);
  return tg_exit ();
}

/* The dump states each tape and its size.  */
/* { dg-final { scan-tensorgrad-dump "tape: 'p', carried by the loop at line 24, keeps its value in every iteration: 1 \\+ max \\(n \\+ -1, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump "tape: 'x', carried by the loop at line 34, keeps its value in every iteration: 1 \\+ max \\(T, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump "tape: 'v', carried by the loop at line 34" } } */
/* { dg-final { scan-tensorgrad-dump "tape: 'h', carried by the loop at line 50, keeps its value in every iteration: max \\(R, 0\\) \\+ max \\(R, 0\\) \\* max \\(m, 0\\) elements" } } */
