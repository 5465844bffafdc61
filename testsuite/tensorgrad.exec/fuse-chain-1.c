/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Fusion: y = tanh (sigmoid (a*x + b) * c) written as four nests through
   three temporaries (two VLAs and a fixed-size array) has a gradient of
   one loop nest with no temporary array; the dump shows each fusion.
   Every gradient against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
chain (int n, double a, double b, double c, const double *x, double *y)
{
  double t1[n], t2[n], t3[64];
  for (int i = 0; i < n; i++)
    t1[i] = a * x[i] + b;
  for (int i = 0; i < n; i++)
    t2[i] = 1.0 / (1.0 + exp (-t1[i]));
  for (int i = 0; i < n; i++)
    t3[i] = t2[i] * c;
  for (int i = 0; i < n; i++)
    y[i] = tanh (t3[i]);
}

struct ctx
{
  int n;
  double a, b, c, *x, *y, *w;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  chain (k->n, k->a, k->b, k->c, k->x, k->y);
  return tg_dot (k->w, k->y, k->n);
}

int
main (void)
{
  enum { N = 9 };
  double x[N], y[N], w[N], dx[N], dy[N], da = 0.5, db = -0.25, dc = 2;
  tg_fill (x, N, 21, -1, 1);
  tg_fill (w, N, 22, -1, 1);
  tg_fill (dx, N, 23, -1, 1);
  double pre[N];
  memcpy (pre, dx, sizeof pre);
  struct ctx k = { N, 0.7, -0.2, 1.3, x, y, w };
  chain (N, k.a, k.b, k.c, x, y);
  memcpy (dy, w, sizeof dy);
  chain_grad (N, k.a, k.b, k.c, x, y, &da, &db, &dc, dx, dy);
  CHECK (memcmp (dy, w, sizeof dy) == 0);
  for (int i = 0; i < N; i++)
    dx[i] -= pre[i];
  da -= 0.5, db += 0.25, dc -= 2;
  tg_fd_check ("x", x, N, loss, &k, dx, 1e-6, 1e-8);
  tg_fd_check ("a", &k.a, 1, loss, &k, &da, 1e-6, 1e-8);
  tg_fd_check ("b", &k.b, 1, loss, &k, &db, 1e-6, 1e-8);
  tg_fd_check ("c", &k.c, 1, loss, &k, &dc, 1e-6, 1e-8);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "fuse: t1 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-dump "fuse: t2 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-dump "fuse: t3 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-after fuse "stage 0:" } } */
/* { dg-final { scan-tensorgrad-after-not fuse "stage 1:" } } */
/* { dg-final { scan-tensorgrad-backward-not "stage 1:" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary" } } */
