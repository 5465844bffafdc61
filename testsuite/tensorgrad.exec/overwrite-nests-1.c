/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Arrays that a later loop nest overwrites, every element again: each
   earlier version gets an array of its own in the gradient's program
   (lib/version.c), which the gradient recomputes.
     stage:  t = exp (x);  y = 2 t;  t = t * t + x;  z = sin (t) * t
       (a local array, read between its two versions, both of which stay
       arrays: exp and sin are not repeated by fusion);
     three versions of an output: w = x; w = 3 w + x * x; w = tanh (w) * w.
   Checks d_x against central differences for each kernel, accumulation
   into pre-filled shadows, and that the outputs and their shadows are
   unchanged by the gradient.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stages (int n, const double *x, double *y, double *z)
{
  double t[32];
  for (int i = 0; i < n; i++)
    t[i] = exp (x[i]);
  for (int i = 0; i < n; i++)
    y[i] = 2 * t[i];
  for (int i = 0; i < n; i++)
    t[i] = t[i] * t[i] + x[i];
  for (int i = 0; i < n; i++)
    z[i] = sin (t[i]) * t[i];
}

__attribute__ ((differentiable))
void
three (int n, const double *x, double *w)
{
  for (int i = 0; i < n; i++)
    w[i] = x[i];
  for (int i = 0; i < n; i++)
    w[i] = 3 * w[i] + x[i] * x[i];
  for (int i = 0; i < n; i++)
    w[i] = tanh (w[i]) * w[i];
}

/* { dg-final { scan-tensorgrad-dump "version: t, written again by a later loop nest, keeps the values of the earlier one in t.v1" } } */
/* { dg-final { scan-tensorgrad-dump "version: w, written again by a later loop nest, keeps the values of the earlier one in w.v2" } } */

enum { N = 9 };

struct ctx
{
  double *x, *y, *z, *cy, *cz;
};

static double
loss_stages (void *v)
{
  struct ctx *k = v;
  stages (N, k->x, k->y, k->z);
  return tg_dot (k->cy, k->y, N) + tg_dot (k->cz, k->z, N);
}

static double
loss_three (void *v)
{
  struct ctx *k = v;
  three (N, k->x, k->y);
  return tg_dot (k->cy, k->y, N);
}

int
main (void)
{
  double x[N], y[N], z[N], cy[N], cz[N], d_x[N], pre[N];
  tg_fill (x, N, 1, -1, 1);
  tg_fill (cy, N, 2, -1, 1);
  tg_fill (cz, N, 3, -1, 1);
  tg_fill (d_x, N, 4, -1, 1);
  for (int i = 0; i < N; i++)
    pre[i] = d_x[i];
  stages (N, x, y, z);
  double *y0 = tg_dup (y, N), *z0 = tg_dup (z, N);
  double *dy = tg_dup (cy, N), *dz = tg_dup (cz, N);
  stages_grad (N, x, y, z, d_x, dy, dz);
  CHECK_SAME (y, y0, sizeof y);
  CHECK_SAME (z, z0, sizeof z);
  CHECK_SAME (dy, cy, sizeof cy);
  CHECK_SAME (dz, cz, sizeof cz);
  tg_sub (d_x, d_x, pre, N);
  struct ctx k = { x, y, z, cy, cz };
  tg_fd_check ("stages x", x, N, loss_stages, &k, d_x, TG_RTOL, TG_ATOL);

  for (int i = 0; i < N; i++)
    d_x[i] = pre[i];
  three (N, x, y);
  double *w0 = tg_dup (y, N), *dw0 = tg_dup (dy, N);
  three_grad (N, x, y, d_x, dy);
  CHECK_SAME (y, w0, sizeof y);
  CHECK_SAME (dy, dw0, N * sizeof *dy);
  tg_sub (d_x, d_x, pre, N);
  tg_fd_check ("three x", x, N, loss_three, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
