/* { dg-do run } */
/* { dg-options "-ffast-math" } */
/* With -ffast-math GCC reassociates l += a + b - c into a + (l + b) - c,
   where the accumulator is no longer an operand of the outermost +: it
   is still a sum reduction (it was refused as a loop-carried scalar).
   Checks every gradient against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
dot2 (int n, const double *v, const double *h, const double *w,
      const double *c)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    l += v[i] * h[i] + w[i] * c[i] - 0.5 * h[i] * h[i];
  return l;
}

enum { N = 6 };

struct ctx
{
  double *v, *h, *w, *c;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  return dot2 (N, k->v, k->h, k->w, k->c);
}

int
main (void)
{
  double v[N], h[N], w[N], c[N];
  double d_v[N] = { 0 }, d_h[N] = { 0 }, d_w[N] = { 0 }, d_c[N] = { 0 };
  tg_fill (v, N, 1, -1, 1);
  tg_fill (h, N, 2, -1, 1);
  tg_fill (w, N, 3, -1, 1);
  tg_fill (c, N, 4, -1, 1);
  dot2_grad (N, v, h, w, c, d_v, d_h, d_w, d_c, 1.0);
  struct ctx k = { v, h, w, c };
  tg_fd_check ("v", v, N, loss, &k, d_v, TG_RTOL, TG_ATOL);
  tg_fd_check ("h", h, N, loss, &k, d_h, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, N, loss, &k, d_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("c", c, N, loss, &k, d_c, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
