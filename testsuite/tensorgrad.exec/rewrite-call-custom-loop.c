/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): a call in a loop of a kernel whose gradient
   is a function of its own.  The rewrite of
   tensorgrad.err/rewrite-call-custom-loop.c: scale is elementwise and
   the rows are contiguous, so one call covers them all; the gradient
   calls scale_grad (rewrite-call-aux.c) once.  Checked: y equals the
   originals' (compiled here as plain C), and every component of the
   gradient against central differences (a call of another file: no
   descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define scale_rows scale_rows_orig
#include "tensorgrad.err/rewrite-call-custom-loop.c"
#undef scale_rows
#undef differentiable

__attribute__ ((differentiable))
void
scale_rows (int B, int n, const double *x, double *y)
{
  scale (B * n, x, y);
}

enum { B = 3, N = 4 };
static double x[B * N], y[B * N], c[B * N];

static double
loss (void *unused)
{
  (void) unused;
  scale_rows (B, N, x, y);
  return tg_dot (c, y, B * N);
}

int
main (void)
{
  tg_fill (x, B * N, 1, -1, 1);
  tg_fill (c, B * N, 2, -1, 1);
  double y0[B * N];
  scale_rows_orig (B, N, x, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  rows (B, N, x, y0);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[B * N] = { 0 }, d_y[B * N];
  memcpy (d_y, c, sizeof c);
  scale_rows_grad (B, N, x, y, d_x, d_y);
  tg_fd_check ("x", x, B * N, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
