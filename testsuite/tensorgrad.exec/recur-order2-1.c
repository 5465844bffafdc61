/* { dg-do run } */
/* A second-order linear recurrence through an output (dependence
   distances 1 and 2), coefficients a and b by-value doubles, n = 9 at run
   time:
     y[0] = x[0];  y[1] = x[1];
     y[i] = a y[i-1] + b y[i-2] + x[i]  (2 <= i < n).
   With g_i the adjoint of y[i] including later steps, backwards:
     g_i = d_y[i] + a g_{i+1} + b g_{i+2};  d_x[i] += g_i;
     *d_a += sum_{i>=2} g_i y[i-1];  *d_b += sum_{i>=2} g_i y[i-2].
   Checks every d_x, d_a and d_b against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
recur2 (int n, double a, double b, const double *x, double *y)
{
  y[0] = x[0];
  y[1] = x[1];
  for (int i = 2; i < n; i++)
    y[i] = a * y[i - 1] + b * y[i - 2] + x[i];
}

struct ctx
{
  int n;
  double ab[2];
  double *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  recur2 (k->n, k->ab[0], k->ab[1], k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  double a = 0.6, b = -0.3, d_ab[2] = { 0.25, -1.5 };
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  recur2 (n, a, b, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  recur2_grad (n, a, b, x, y, &d_ab[0], &d_ab[1], d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n), g_ab[2] = { d_ab[0] - 0.25, d_ab[1] + 1.5 };
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, { a, b }, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("ab", k.ab, 2, loss, &k, g_ab, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
