/* { dg-do run } */
/* logsumexp into a returned double, run-time length n = 5, stabilised by
   the maximum: mx = max_i x[i] (fmax); s = sum_i exp (x[i] - mx);
   return mx + log (s).  Gradient void logsumexp_grad (int n,
   const double *x, double *d_x, double d_return):
   d_x[i] += d_return exp (x[i] - lse) (the softmax of x).  Checks every
   d_x against central differences with d_return = -1.25, accumulation
   into a pre-filled d_x, and that x is untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
logsumexp (int n, const double *x)
{
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = fmax (mx, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp (x[i] - mx);
  return mx + log (s);
}

struct ctx
{
  int n;
  double *x, c_ret;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  return cx->c_ret * logsumexp (cx->n, cx->x);
}

int
main (void)
{
  int n = 5;
  int n_x = n;
  double c_ret = -1.25;
  double *x = tg_alloc (n_x);
  double *d_x = tg_alloc (n_x);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (d_x, n_x, 2, -1, 1);

  logsumexp (n, x);
  double *x0 = tg_dup (x, n_x);
  double *pre_x = tg_dup (d_x, n_x);

  logsumexp_grad (n, x, d_x, c_ret);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, x, c_ret };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
