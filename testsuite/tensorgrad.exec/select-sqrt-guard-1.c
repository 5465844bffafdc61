/* { dg-do run } */
/* A select guarding a function whose derivative is infinite or NaN on the
   other side: y = x > 0 ? sqrt (x) : 0.  The gradient must not evaluate
   sqrt's derivative where x <= 0 (0 * NaN would poison d_x there): checks
   every d_x, on both sides, against central differences.  */

#include <math.h>
#include <string.h>
__attribute__((differentiable))
void k15(int n, const double *x, double *y) { for (int i = 0; i < n; i++) y[i] = x[i] > 0 ? sqrt(x[i]) : 0; }
#include "tg-test.h"
static double xv[16], yv[16], cw[16];
static double loss(void *v) { (void) v; memset(yv, 0, sizeof yv); k15(7, xv, yv); return tg_dot(cw, yv, 7); }
int main(void) {
  tg_fill(xv, 16, 1, -2, 2); tg_fill(cw, 16, 2, -1, 1);
  double dx[16] = {0}, dy[16];
  memcpy(dy, cw, sizeof dy);
  memset(yv, 0, sizeof yv); k15(7, xv, yv); k15_grad(7, xv, yv, dx, dy);
  tg_fd_check("x", xv, 7, loss, 0, dx, 1e-6, 1e-7);
  return tg_exit();
}
