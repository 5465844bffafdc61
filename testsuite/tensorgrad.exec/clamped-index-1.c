/* { dg-do run } */
/* Clamped indices (edge padding): an index chosen by a condition is
   piecewise affine, and the gradient scatters into the elements it
   picks, adding where two picks are one element.
   rows:   y[i][j] = x[min (i+1, n-1)][j] - x[max (i-1, 0)][j], written
           with ternaries inside the index;
   edge:   float, y[i] = x[l] + 2 x[i] + x[r] with l and r clamped in
           locals of their own, through an offset output pointer;
   d_x[k] += sum over the (i, tap) that pick k of d_y times the tap's
   weight, checked against central differences.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[(i + 1 < n ? i + 1 : n - 1) * m + j]
                     - x[(i > 0 ? i - 1 : 0) * m + j];
}

__attribute__ ((differentiable))
void
edge (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      int l = i - 1 < 0 ? 0 : i - 1;
      int r = i + 1 > n - 1 ? n - 1 : i + 1;
      y[i] = x[l] * x[l] + 2 * x[i] + x[r];
    }
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -1, 1);
  TG_GRADCHECK (rows, &n, &m, x, y);

  int k = 6;
  float *u = tg_alloc_f (k), *buf = tg_alloc_f (k + 2);
  tg_fill_f (u, k, 2, -1, 1);
  TG_GRADCHECK (edge, &k, u, buf + 2);
  return tg_exit ();
}
