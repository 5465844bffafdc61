/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): a call that writes a local array and an
   output.  The rewrite of tensorgrad.err/rewrite-call-again.c: act2
   writes two local arrays, and a loop of its own copies the derivative
   into dy.  Checked: dy and out equal the original's (compiled here as
   plain C), and every component of the gradient against central
   differences, with adjoints for both outputs (a call of another file:
   no descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define layer layer_orig
#include "tensorgrad.err/rewrite-call-again.c"
#undef layer
#undef differentiable

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *dy, double *out)
{
  double t[n], d[n];
  act2 (n, x, t, d);
  for (int i = 0; i < n; i++)
    dy[i] = d[i];
  for (int i = 0; i < n; i++)
    out[i] = t[i] * t[i];
}

enum { N = 5 };
static double x[N], dy[N], out[N], c[N], cd[N];

static double
loss (void *unused)
{
  (void) unused;
  layer (N, x, dy, out);
  return tg_dot (c, out, N) + tg_dot (cd, dy, N);
}

int
main (void)
{
  tg_fill (x, N, 1, -1, 1);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (cd, N, 3, -1, 1);
  double dy0[N], out0[N];
  layer_orig (N, x, dy0, out0);
  loss (NULL);
  CHECK_SAME (dy, dy0, sizeof dy);
  CHECK_SAME (out, out0, sizeof out);
  double d_x[N] = { 0 }, d_dy[N], d_out[N];
  memcpy (d_out, c, sizeof c);
  memcpy (d_dy, cd, sizeof cd);
  layer_grad (N, x, dy, out, d_x, d_dy, d_out);
  tg_fd_check ("x", x, N, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
