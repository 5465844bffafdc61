/* { dg-do run } */
/* { dg-options "-fopenmp" } */
/* A kernel without OpenMP directives in a file compiled with -fopenmp:
   its gradient is made as usual.  A normalization with two reductions,
   every gradient against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
norm (int n, const double *x, double *y)
{
  double mean = 0;
  for (int i = 0; i < n; i++)
    mean += x[i];
  mean /= n;
  double v = 0;
  for (int i = 0; i < n; i++)
    v += (x[i] - mean) * (x[i] - mean);
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - mean) / sqrt (v / n + 1e-3);
}

static double xv[6], yv[6], cw[6];

static double
loss (void *v)
{
  (void) v;
  norm (6, xv, yv);
  return tg_dot (cw, yv, 6);
}

int
main (void)
{
  tg_fill (xv, 6, 71, -1, 1);
  tg_fill (cw, 6, 72, -1, 1);
  double dx[6] = { 0 }, dy[6];
  norm (6, xv, yv);
  memcpy (dy, cw, sizeof dy);
  norm_grad (6, xv, yv, dx, dy);
  CHECK (memcmp (dy, cw, sizeof dy) == 0);
  tg_fd_check ("x", xv, 6, loss, 0, dx, 1e-6, 1e-7);
  return tg_exit ();
}
