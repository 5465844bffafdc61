/* { dg-do run } */
/* A kernel with a hand-written gradient, called two levels down: top
   scales what mid computes, mid only calls softplus, whose gradient the
   user wrote.  top's gradient inlines mid's program, and with it the call
   of softplus_grad (before, the inlined program lost the call and d_x
   stayed zero, silently).  Also with an offset into the arrays.

     z[i] = 2 * softplus (x[i + 1]),  d_x[i + 1] += 2 d_z[i] sigmoid (x[i + 1])

   Checks d_x against central differences, accumulation into a pre-filled
   d_x, x, z and d_z untouched, and a NULL d_x.  Checked by hand: a kernel
   that calls a hand-written gradient gets no descriptor.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softplus (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = log1p (exp (x[i]));
}

void
softplus_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  if (d_x)
    for (int i = 0; i < n; i++)
      d_x[i] += d_y[i] / (1 + exp (-x[i]));
}

__attribute__ ((differentiable))
void
mid (int n, const double *x, double *y)
{
  softplus (n, x, y);
}

__attribute__ ((differentiable))
void
top (int n, const double *x, double *z)
{
  double t[n];
  mid (n, x + 1, t);
  for (int i = 0; i < n; i++)
    z[i] = 2 * t[i];
}

struct ctx
{
  int n;
  double *x, *z, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  top (k->n, k->x, k->z);
  return tg_dot (k->c, k->z, k->n);
}

int
main (void)
{
  enum { N = 6 };
  double *x = tg_alloc (N + 1), *z = tg_alloc (N), *c = tg_alloc (N);
  double *d_x = tg_alloc (N + 1);
  tg_fill (x, N + 1, 1, -2, 2);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (d_x, N + 1, 3, -1, 1);
  top (N, x, z);
  double *x0 = tg_dup (x, N + 1), *z0 = tg_dup (z, N);
  double *d_z = tg_dup (c, N), *pre = tg_dup (d_x, N + 1);
  top_grad (N, x, z, d_x, d_z);
  CHECK_SAME (x, x0, (N + 1) * sizeof (double));
  CHECK_SAME (z, z0, N * sizeof (double));
  CHECK_SAME (d_z, c, N * sizeof (double));
  double *g = tg_alloc (N + 1);
  tg_sub (g, d_x, pre, N + 1);
  CHECK_NEAR (g[0], 0, 0, 0);
  struct ctx k = { N, x, z, c };
  tg_fd_check ("x", x, N + 1, loss, &k, g, TG_RTOL, TG_ATOL);
  top_grad (N, x, z, NULL, d_z);
  CHECK_SAME (d_z, c, N * sizeof (double));
  return tg_exit ();
}
