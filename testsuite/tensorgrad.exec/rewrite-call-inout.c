/* { dg-do run } */
/* How to rewrite (README): a call of a hand-written gradient whose
   kernel reads and writes an array.  The rewrite of
   tensorgrad.err/rewrite-call-inout.c: axpby writes its own output, y =
   a x + b, and its hand-written gradient follows the ABI for that
   signature; layer's gradient calls it.  (Without axpy_grad, the
   plugin's own gradient of axpy is inlined and the original is
   accepted.)  Checked: y equals the original's (compiled here as plain
   C), and layer's gradient, which is axpby_grad's, against central
   differences (a hand-written gradient gets no descriptor: checked by
   hand).  */

#include "tg-test.h"

#define differentiable unused
#define axpy axpy_orig
#define axpy_grad axpy_grad_orig
#define layer layer_orig
#include "tensorgrad.err/rewrite-call-inout.c"
#undef axpy
#undef axpy_grad
#undef layer
#undef differentiable

__attribute__ ((differentiable))
void
axpby (int n, double a, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b[i];
}

void
axpby_grad (int n, double a, const double *x, const double *b, double *y,
            double *d_a, double *d_x, double *d_b, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      if (d_a)
        *d_a += x[i] * d_y[i];
      if (d_x)
        d_x[i] += a * d_y[i];
      if (d_b)
        d_b[i] += d_y[i];
    }
}

__attribute__ ((differentiable))
void
layer (int n, double a, const double *x, const double *b, double *y)
{
  axpby (n, a, x, b, y);
}

enum { N = 5 };
static double a = 0.7, x[N], b[N], y[N], c[N];

static double
loss (void *unused)
{
  (void) unused;
  layer (N, a, x, b, y);
  return tg_dot (c, y, N);
}

int
main (void)
{
  tg_fill (x, N, 1, -1, 1);
  tg_fill (b, N, 2, -1, 1);
  tg_fill (c, N, 3, -1, 1);
  double y0[N];
  layer_orig (N, a, x, b, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  double d_a = 0, d_x[N] = { 0 }, d_b[N] = { 0 }, d_y[N];
  memcpy (d_y, c, sizeof c);
  layer_grad (N, a, x, b, y, &d_a, d_x, d_b, d_y);
  tg_fd_check ("a", &a, 1, loss, NULL, &d_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, N, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, N, loss, NULL, d_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
