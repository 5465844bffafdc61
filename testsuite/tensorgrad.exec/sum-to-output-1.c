/* { dg-do run } */
/* A sum reduction accumulated directly in an output element, which the
   kernel zeroes first, n x K at run time (5 x 4):
   y[i] = 0; for (k < K) y[i] += x[i*K+k];
   y is an output (it reads only what it wrote), so d_y holds the
   incoming adjoint and stays unchanged; d_x[i*K+k] += d_y[i].  Checks
   every d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rowsum_out (int n, int K, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = 0;
      for (int k = 0; k < K; k++)
	y[i] += x[i * K + k];
    }
}

struct ctx
{
  int n, K;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  rowsum_out (k->n, k->K, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 5, K = 4, nk = n * K;
  double *x = tg_alloc (nk), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (nk), *g = tg_alloc (nk);
  tg_fill (x, nk, 1, -2, 2);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, nk, 3, -1, 1);

  rowsum_out (n, K, x, y);
  double *x0 = tg_dup (x, nk), *y0 = tg_dup (y, n), *d_y = tg_dup (c, n);
  double *pre = tg_dup (d_x, nk);

  rowsum_out_grad (n, K, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nk * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, nk);
  struct ctx k = { n, K, x, y, c };
  tg_fd_check ("x", x, nk, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
