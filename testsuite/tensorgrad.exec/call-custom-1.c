/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A kernel whose gradient the user wrote, softplus with a hand-written
   softplus_grad, called from another differentiable kernel: the caller's
   gradient calls softplus_grad, not a gradient of softplus's body (the
   dump scan below shows the call; the hand-written gradient is exact, so
   central differences alone could not tell).  Around the call: a local
   array written before it and read by it, a scalar argument computed
   from the caller's parameter a, a local array it writes and a later nest
   reads, and its float result.  TG_GRADCHECK checks d_x and d_a against
   central differences, accumulating into the shadows; then both shadows
   NULL.  */

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

int
main (void)
{
  enum { N = 7 };
  int n = N;
  double x[N], a = 0.7;
  tg_fill (x, N, 1, -1.5, 1.5);
  TG_GRADCHECK (model, &n, x, &a);
  /* NULL shadows: nothing is written, nothing crashes.  */
  TG_GRADCHECK_NULL (model, "x a", &n, x, &a);
  return tg_exit ();
}
