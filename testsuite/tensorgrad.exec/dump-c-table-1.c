/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-table-1.gen.c -I." } */
/* { dg-additional-sources "dump-c-table-1-aux.c" } */
/* dump-c prints a gradient that reads constant tables and a global:
   each table is copied into the function (static const, its elements
   exact), the global declared extern and read when it runs.
   dump-c-table-1-aux.c compiles that file (the gradients renamed
   *_grad_c), and this test checks that they compute what the injected
   ones do, which TG_GRADCHECK and central differences check.
   taps:   y[i] = sum_t k[t] x[i+t], k a function's static const float
           table: d_x[i+t] += k[t] d_y[i].
   scaled: y[i] = q[i % 3] x[i]^2 for i < NB, q a file-scope table, NB a
           global int: d_x[i] += 2 q[i % 3] x[i] d_y[i].  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
taps (int n, const float *x, float *y)
{
  static const float k[4] = { 0.1f, -0.3f, 1.0f / 3, 2.5f };
  for (int i = 0; i < n; i++)
    {
      float s = 0;
      for (int t = 0; t < 4; t++)
        s += k[t] * x[i + t];
      y[i] = s;
    }
}

static const double q[3] = { 0.7, -1.0 / 3, 1e-3 };
int NB = 5;

__attribute__ ((differentiable))
void
scaled (const double *x, double *y)
{
  for (int i = 0; i < NB; i++)
    y[i] = q[i % 3] * x[i] * x[i];
}

void taps_grad_c (int n, const float *x, float *y, float *d_x, float *d_y);
void scaled_grad_c (const double *x, double *y, double *d_x, double *d_y);

static double
loss_scaled (void *c)
{
  double y[8];
  scaled ((double *) ((double **) c)[0], y);
  return tg_dot (((double **) c)[1], y, NB);
}

int
main (void)
{
  int n = 6;
  float *x = tg_alloc_f (n + 3), *y = tg_alloc_f (n);
  tg_fill_f (x, n + 3, 1, -1, 1);
  TG_GRADCHECK (taps, &n, x, y);
  float dx1[9] = { 0 }, dx2[9] = { 0 }, dy[6];
  tg_fill_f (dy, n, 2, -1, 1);
  taps (n, x, y);
  taps_grad (n, x, y, dx1, dy);
  taps_grad_c (n, x, y, dx2, dy);
  for (int i = 0; i < n + 3; i++)
    CHECK_NEAR (dx2[i], dx1[i], 0, 0);

  NB = 7;
  double xs[8], ys[8], c[8], g1[8] = { 0 }, g2[8] = { 0 }, d[8];
  tg_fill (xs, 8, 3, -2, 2);
  tg_fill (c, 8, 4, -1, 1);
  scaled (xs, ys);
  memcpy (d, c, sizeof d);
  scaled_grad (xs, ys, g1, d);
  scaled_grad_c (xs, ys, g2, d);
  double *ctx[2] = { xs, c };
  tg_fd_check ("x", xs, NB, loss_scaled, ctx, g1, TG_RTOL, TG_ATOL);
  for (int i = 0; i < 8; i++)
    CHECK_NEAR (g2[i], g1[i], 0, 0);
  CHECK_NEAR (g1[7], 0.0, 0, 0);
  return tg_exit ();
}
