/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A kernel whose gradient the user wrote, softplus with a hand-written
   softplus_grad, called from another differentiable kernel: the caller's
   gradient calls softplus_grad, not a gradient of softplus's body (the
   dump scan below shows the call; the hand-written gradient is exact, so
   central differences alone could not tell).  Around the call: a local
   array written before it and read by it, a scalar argument computed
   from the caller's parameter a, a local array it writes and a later nest
   reads, and its float result.  Checked against central differences,
   d_x and d_a accumulating into pre-filled shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
softplus (int n, double beta, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      y[i] = log1p (exp (beta * x[i])) / beta;
      s += y[i];
    }
  return s;
}

/* Its gradient, as the ABI has it: d_beta and d_x accumulate, d_y and
   d_return are the adjoints of y and of the returned sum.  */
void
softplus_grad (int n, double beta, const double *x, double *y,
               double *d_beta, double *d_x, double *d_y, double d_return)
{
  for (int i = 0; i < n; i++)
    {
      double g = d_y[i] + d_return;
      double sig = 1 / (1 + exp (-beta * x[i]));
      if (d_x)
        d_x[i] += g * sig;
      if (d_beta)
        d_beta[0] += g * (x[i] * sig - y[i]) / beta;
    }
}

__attribute__ ((differentiable))
double
model (int n, const double *x, double a)
{
  double t[16], u[16];
  for (int i = 0; i < n; i++)
    t[i] = sin (x[i]) + a;
  double total = softplus (n, 2 * a, t, u);
  double q = 0;
  for (int i = 0; i < n; i++)
    q += u[i] * u[i] * x[i];
  return q + total * a;
}

/* { dg-final { scan-tensorgrad-dump "softplus_grad \\(n, softplus.arg2\\\[0\\\], t, u, &d_softplus.arg2\\\[0\\\], d_t, d_u, d_softplus.return\\\[0\\\]\\);" } } */
/* { dg-final { scan-tensorgrad-dump "recompute: u, a local array of the forward, in the gradient's prologue \\(a call of softplus\\)" } } */

struct ctx
{
  int n;
  double *x, a;
};

static double
loss_x (void *v)
{
  struct ctx *k = v;
  return model (k->n, k->x, k->a);
}

int
main (void)
{
  enum { N = 7 };
  double x[N], d_x[N], pre[N], g[N], d_a = 0.25, a = 0.7;
  tg_fill (x, N, 1, -1.5, 1.5);
  tg_fill (d_x, N, 2, -1, 1);
  for (int i = 0; i < N; i++)
    pre[i] = d_x[i];
  model_grad (N, x, a, d_x, &d_a, 1.5);
  for (int i = 0; i < N; i++)
    g[i] = (d_x[i] - pre[i]) / 1.5;
  struct ctx k = { N, x, a };
  tg_fd_check ("x", x, N, loss_x, &k, g, TG_RTOL, TG_ATOL);
  double h = 1e-6;
  double fd = (model (N, x, a + h) - model (N, x, a - h)) / (2 * h);
  CHECK_NEAR ((d_a - 0.25) / 1.5, fd, 1e-6, 1e-7);
  /* NULL shadows: nothing is written, nothing crashes.  */
  model_grad (N, x, a, NULL, NULL, 1.0);
  return tg_exit ();
}
