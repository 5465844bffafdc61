/* { dg-do run } */
/* A chain of four nests through two VLA temporaries and a fixed-size
   one, and an output read back by a later nest (also at a mirrored
   index): every gradient against central differences, and the output
   shadow of the read-back output unchanged.  Checked by hand: one of its
   kernels gets no descriptor (its dump says the extents of an array cannot
   be told).  */
#include <math.h>
#include "tg-test.h"
__attribute__((differentiable))
void chain(int n, double a, double b, double c, const double *x, double *y)
{
  double t1[n], t2[n];
  double t3[64];
  for (int i = 0; i < n; i++) t1[i] = a * x[i] + b;
  for (int i = 0; i < n; i++) t2[i] = 1.0 / (1.0 + exp(-t1[i]));
  for (int i = 0; i < n; i++) t3[i] = t2[i] * c;
  for (int i = 0; i < n; i++) y[i] = tanh(t3[i]);
}
__attribute__((differentiable))
void readback(int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++) y[i] = sin(x[i]);
  for (int i = 0; i < n; i++) z[i] = y[i] * y[n-1-i];
}
struct ctx { int n; double a, b, c, *x, *y, *cw; };
static double loss(void *v) { struct ctx *k = v; chain(k->n, k->a, k->b, k->c, k->x, k->y); return tg_dot(k->cw, k->y, k->n); }
static double loss2(void *v) { struct ctx *k = v; double z[7]; readback(k->n, k->x, k->y, z); return tg_dot(k->cw, z, k->n) + tg_dot(k->cw+7, k->y, k->n); }
int main(void) {
  int n = 7; double x[7], y[7], cw[14], dx[7] = {0}, dy[7], dz[7], da = 0, db = 0, dc = 0;
  tg_fill(x, n, 1, -1, 1); tg_fill(cw, 14, 2, -1, 1);
  struct ctx k = { n, 0.7, -0.2, 1.3, x, y, cw };
  chain(n, k.a, k.b, k.c, x, y);
  for (int i = 0; i < n; i++) dy[i] = cw[i];
  chain_grad(n, k.a, k.b, k.c, x, y, &da, &db, &dc, dx, dy);
  tg_fd_check("x", x, n, loss, &k, dx, 1e-6, 1e-7);
  tg_fd_check("a", &k.a, 1, loss, &k, &da, 1e-6, 1e-7);
  tg_fd_check("b", &k.b, 1, loss, &k, &db, 1e-6, 1e-7);
  tg_fd_check("c", &k.c, 1, loss, &k, &dc, 1e-6, 1e-7);
  double z[7]; memset(dx, 0, sizeof dx);
  readback(n, x, y, z);
  for (int i = 0; i < n; i++) { dz[i] = cw[i]; dy[i] = cw[7+i]; }
  readback_grad(n, x, y, z, dx, dy, dz);
  CHECK(memcmp(dy, cw + 7, sizeof dy) == 0); /* d_y left unchanged */
  tg_fd_check("x2", x, n, loss2, &k, dx, 1e-6, 1e-7);
  return tg_exit();
}
