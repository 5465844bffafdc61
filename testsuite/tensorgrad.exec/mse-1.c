/* { dg-do run } */
/* Mean squared error into a returned double, run-time length n = 5:
   double mse (int n, const double *p, const double *t)
   { double s = 0; for (i < n) { double e = p[i] - t[i]; s += e * e; }
     return s / n; },
   gradient void mse_grad (int n, const double *p, const double *t,
   double *d_p, double *d_t, double d_return).
   d_p[i] += 2 d_return (p - t) / n; d_t[i] -= the same.  Checks every d_p
   and d_t against central differences with d_return = 0.875,
   accumulation into pre-filled shadows, and that p and t are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
mse (int n, const double *p, const double *t)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      double e = p[i] - t[i];
      s += e * e;
    }
  return s / n;
}

struct ctx
{
  int n;
  double *p, *t, c_ret;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  return cx->c_ret * mse (cx->n, cx->p, cx->t);
}

int
main (void)
{
  int n = 5;
  int n_p = n;
  int n_t = n;
  double c_ret = 0.875;
  double *p = tg_alloc (n_p);
  double *t = tg_alloc (n_t);
  double *d_p = tg_alloc (n_p);
  double *d_t = tg_alloc (n_t);
  tg_fill (p, n_p, 1, -2, 2);
  tg_fill (t, n_t, 2, -2, 2);
  tg_fill (d_p, n_p, 3, -1, 1);
  tg_fill (d_t, n_t, 4, -1, 1);

  mse (n, p, t);
  double *p0 = tg_dup (p, n_p);
  double *t0 = tg_dup (t, n_t);
  double *pre_p = tg_dup (d_p, n_p);
  double *pre_t = tg_dup (d_t, n_t);

  mse_grad (n, p, t, d_p, d_t, c_ret);

  CHECK_SAME (p, p0, n_p * sizeof (double));
  CHECK_SAME (t, t0, n_t * sizeof (double));
  double *g_p = tg_alloc (n_p);
  tg_sub (g_p, d_p, pre_p, n_p);
  double *g_t = tg_alloc (n_t);
  tg_sub (g_t, d_t, pre_t, n_t);
  struct ctx cx = { n, p, t, c_ret };
  tg_fd_check ("p", p, n_p, loss, &cx, g_p, TG_RTOL, TG_ATOL);
  tg_fd_check ("t", t, n_t, loss, &cx, g_t, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
