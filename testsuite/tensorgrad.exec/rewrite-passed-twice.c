/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): one array passed twice to a kernel whose
   gradient is a function of its own.  The rewrite of
   tensorgrad.err/rewrite-passed-twice.c: the second factor is a local
   copy of x, so the two arguments do not overlap; square's gradient
   calls mul_grad (rewrite-call-aux.c) and adds the copy's
   adjoint to x's.  Checked: y equals the original's (compiled here as
   plain C), and every component of the gradient against central
   differences (a call of another file: no descriptor, checked by
   hand).  */

#include "tg-test.h"

#define differentiable unused
#define square square_orig
#include "tensorgrad.err/rewrite-passed-twice.c"
#undef square
#undef differentiable

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y)
{
  double x2[n];
  for (int i = 0; i < n; i++)
    x2[i] = x[i];
  mul (n, x, x2, y);
}

enum { N = 5 };
static double x[N], y[N], c[N];

static double
loss (void *unused)
{
  (void) unused;
  square (N, x, y);
  return tg_dot (c, y, N);
}

int
main (void)
{
  tg_fill (x, N, 1, -1, 1);
  tg_fill (c, N, 2, -1, 1);
  double y0[N];
  square_orig (N, x, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[N] = { 0 }, d_y[N];
  memcpy (d_y, c, sizeof c);
  square_grad (N, x, y, d_x, d_y);
  CHECK_SAME (d_y, c, sizeof c);
  tg_fd_check ("x", x, N, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
