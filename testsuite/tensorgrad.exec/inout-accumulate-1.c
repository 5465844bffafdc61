/* { dg-do run } */
/* Accumulation into an in-out array: y[i] += sum_j x[i*k+j]^2 with no
   zeroing, so y is in-out: d_y (the adjoint of the final y) is also the
   adjoint of the entry y.  Every gradient against central differences.  */
#include <math.h>
#include "tg-test.h"
__attribute__((differentiable)) void acc(int n, int k, const double *x, double *y) { for (int i = 0; i < n; i++) for (int j = 0; j < k; j++) y[i] += x[i*k+j] * x[i*k+j]; }
static double xv[20], y0v[5], yv[5], cw[5];
static double loss(void *v) { (void) v; memcpy(yv, y0v, sizeof yv); acc(5, 4, xv, yv); return tg_dot(cw, yv, 5); }
int main(void) {
  tg_fill(xv, 20, 1, -1, 1); tg_fill(y0v, 5, 3, -1, 1); tg_fill(cw, 5, 2, -1, 1);
  double dx[20] = {0}, dy[5];
  memcpy(yv, y0v, sizeof yv); acc(5, 4, xv, yv);
  memcpy(dy, cw, sizeof dy);
  acc_grad(5, 4, xv, yv, dx, dy);
  tg_fd_check("x", xv, 20, loss, 0, dx, 1e-6, 1e-8);
  tg_fd_check("y", y0v, 5, loss, 0, dy, 1e-6, 1e-8);
  return tg_exit();
}
