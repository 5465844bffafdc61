/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-2.gen.c -I." } */
/* { dg-additional-sources "dump-c-2-aux.c" } */
/* Two reductions in one scope of the dump-c file: the loss
   l = (sum_i x[i] w[i]) (sum_i x[i]^2) has two top-level nests, each with
   an accumulator, that once were both `double acc' at the function's top
   level ("redefinition of 'acc'").  dump-c-2-aux.c compiles the dumped C
   (as two_red_grad_c); this test checks that it computes what the
   injected gradient does: d_x[i] = w[i] B + 2 x[i] A, d_w[i] = x[i] B
   times d_return, where A = sum x w and B = sum x^2.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
two_red (int n, const double *x, const double *w)
{
  double a = 0, b = 0;
  for (int i = 0; i < n; i++)
    a += x[i] * w[i];
  for (int i = 0; i < n; i++)
    b += x[i] * x[i];
  return a * b;
}

void two_red_grad_c (int n, const double *x, const double *w, double *d_x,
                     double *d_w, double d_return);

enum { N = 6 };
static double x[N], w[N];

int
main (void)
{
  int n = N;
  tg_fill (x, N, 41, -1, 1);
  tg_fill (w, N, 42, -1, 1);
  const tg_check_opts tight = { 1e-6, 1e-8, 0, 0, 0 };
  TG_GRADCHECK_OPTS (two_red, &tight, &n, x, w);

  double a = 0, b = 0;
  for (int i = 0; i < N; i++)
    {
      a += x[i] * w[i];
      b += x[i] * x[i];
    }
  double dx1[N] = { 0 }, dw1[N] = { 0 }, dx2[N] = { 0 }, dw2[N] = { 0 };
  two_red_grad (N, x, w, dx1, dw1, 0.5);
  two_red_grad_c (N, x, w, dx2, dw2, 0.5);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR (dx1[i], 0.5 * (w[i] * b + 2 * x[i] * a), 1e-12, 1e-12);
      CHECK_NEAR (dw1[i], 0.5 * x[i] * b, 1e-12, 1e-12);
      CHECK_NEAR (dx2[i], dx1[i], 1e-14, 1e-14);
      CHECK_NEAR (dw2[i], dw1[i], 1e-14, 1e-14);
    }
  /* A NULL shadow: the other one is still right.  */
  double dx3[N] = { 0 };
  two_red_grad_c (N, x, w, dx3, NULL, 0.5);
  for (int i = 0; i < N; i++)
    CHECK_NEAR (dx3[i], dx1[i], 1e-14, 1e-14);
  return tg_exit ();
}
