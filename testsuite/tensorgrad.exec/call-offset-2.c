/* { dg-do run } */
/* Two top-level calls of one differentiable kernel on the two halves of
   an input and an output, crossed over, with a by-value scalar argument
   computed from the caller's (2 * a), n = 5 at run time, x and y of 2n:
     scale_exp (n, a, x, y): y[i] = a exp (x[i]);
     two_calls (n, a, x, y): scale_exp (n, a, x + n, y);
			     scale_exp (n, 2 * a, x, y + n).
   d_x[n+i] += d_y[i] a exp (x[n+i]); d_x[i] += d_y[n+i] 2a exp (x[i]);
   *d_a += sum_i d_y[i] exp (x[n+i]) + 2 d_y[n+i] exp (x[i]).
   Checks every d_x and d_a against central differences, accumulation
   into pre-filled shadows, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scale_exp (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * exp (x[i]);
}

__attribute__ ((differentiable))
void
two_calls (int n, double a, const double *x, double *y)
{
  scale_exp (n, a, x + n, y);
  scale_exp (n, 2 * a, x, y + n);
}

struct ctx
{
  int n;
  double a;
  double *x, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  two_calls (k->n, k->a, k->x, k->y);
  return tg_dot (k->cy, k->y, 2 * k->n);
}

int
main (void)
{
  int n = 5, n2 = 2 * n;
  double a = -0.6, d_a = 0.375;
  double *x = tg_alloc (n2), *y = tg_alloc (n2), *cy = tg_alloc (n2);
  double *d_x = tg_alloc (n2);
  tg_fill (x, n2, 1, -1.5, 1.5);
  tg_fill (cy, n2, 2, -1, 1);
  tg_fill (d_x, n2, 3, -1, 1);

  two_calls (n, a, x, y);
  double *x0 = tg_dup (x, n2), *y0 = tg_dup (y, n2), *d_y = tg_dup (cy, n2);
  double *pre_x = tg_dup (d_x, n2);

  two_calls_grad (n, a, x, y, &d_a, d_x, d_y);

  CHECK_SAME (x, x0, n2 * sizeof *x);
  CHECK_SAME (y, y0, n2 * sizeof *y);
  CHECK_SAME (d_y, cy, n2 * sizeof *d_y);
  double *g_x = tg_alloc (n2), g_a = d_a - 0.375;
  tg_sub (g_x, d_x, pre_x, n2);
  struct ctx k = { n, a, x, y, cy };
  tg_fd_check ("x", x, n2, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
