/* { dg-do run } */
/* { dg-additional-sources "namespace-1-aux.cc" } */
/* A kernel in a namespace gets its gradient in that namespace, nested
   and inline namespaces included (nn::ops::relu_grad,
   nn::v2::soft_grad, which nn::soft_grad names too), and so does its
   descriptor (nn::ops::relu_gradcheck, declared there with
   TG_DECLARE_GRADCHECK).  One in an anonymous namespace gets an
   internal gradient, as a static one does; the declarations of both,
   after and before the kernel, draw no "used but never defined".  namespace-1-aux.cc declares
   the gradients in their namespaces and calls them.

   relu:  y[i] = x[i] > 0 ? x[i] : 0;  d_x[i] += x[i] > 0 ? d_y[i] : 0
   soft:  y[i] = log (1 + exp (x[i]));  d_x[i] += d_y[i] / (1 + exp (-x[i]))
   twice: y[i] = 2 x[i];  d_x[i] += 2 d_y[i], thrice likewise  */

#include <cmath>
#include "tg-test.h"

namespace nn {
namespace ops {
__attribute__ ((differentiable))
void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0;
}
TG_DECLARE_GRADCHECK (relu);
}

inline namespace v2 {
__attribute__ ((differentiable))
void
soft (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::log (1 + std::exp (x[i]));
}
}
}

static void thrice_grad (int n, const double *x, double *y, double *d_x,
                         double *d_y);

__attribute__ ((differentiable))
static void
thrice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 3 * x[i];
}

namespace {
__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}
void twice_grad (int n, const double *x, double *y, double *d_x,
                 double *d_y);
}

void call_grads (int n, const double *x, double *y, double *d_x,
                 double *d_y, double *y2, double *d_x2);

int
main ()
{
  enum { N = 6 };
  double x[N], y[N], dx[N] = { 0 }, dy[N], y2[N], dx2[N] = { 0 };
  tg_fill_away (x, N, 1, -2, 2, 0, 0.1);
  tg_fill (dy, N, 2, -1, 1);
  nn::ops::relu (N, x, y);
  nn::soft (N, x, y2);
  call_grads (N, x, y, dx, dy, y2, dx2);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], x[i] > 0 ? dy[i] : 0, 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dx2[i], dy[i] / (1 + std::exp (-x[i])), 1e-13, 1e-14,
                     i);
    }
  double y3[N], dx3[N] = { 0 };
  twice (N, x, y3);
  twice_grad (N, x, y3, dx3, dy);
  double dx4[N] = { 0 };
  thrice (N, x, y3);
  thrice_grad (N, x, y3, dx4, dy);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx3[i], 2 * dy[i], 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dx4[i], 3 * dy[i], 1e-15, 1e-15, i);
    }
  int n = N;
  tg_gradcheck_ok_ (&nn::ops::relu_gradcheck, TG_ARGS (&n, x, y), NULL,
                    NULL, "relu", __FILE__, __LINE__);
  return tg_exit ();
}
