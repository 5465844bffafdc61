/* { dg-do run } */
/* A first-order linear filter (exponential moving average) with the
   coefficient a a by-value double, n = 7 at run time:
     y[0] = x[0];  y[i] = a y[i-1] + (1 - a) x[i]  (0 < i < n).
   Gradient void ema_grad (int n, double a, const double *x, double *y,
   double *d_a, double *d_x, double *d_y).  With g_i the adjoint of y[i]
   including later steps, backwards: g_i = d_y[i] + a g_{i+1};
   d_x[i] += (1 - a) g_i (i > 0), d_x[0] += g_0;
   *d_a += sum_{i>0} g_i (y[i-1] - x[i]).
   Checks every d_x and d_a against central differences, accumulation
   into pre-filled shadows, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ema (int n, double a, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + (1 - a) * x[i];
}

struct ctx
{
  int n;
  double a;
  double *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  ema (k->n, k->a, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double a = 0.7, d_a = -0.5;
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  ema (n, a, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  ema_grad (n, a, x, y, &d_a, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n), g_a = d_a + 0.5;
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, a, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
