/* { dg-do run } */
/* A triangular iteration domain: a lower-triangular matrix-vector
   product, w n x n (5 x 5 at run time), only j <= i read, y zeroed in
   the same kernel:
   for (i < n) { y[i] = 0; for (j = 0; j <= i; j++) y[i] += w[i*n+j] x[j]; }.
   d_x[j] += sum_{i >= j} d_y[i] w[i*n+j]; d_w[i*n+j] += d_y[i] x[j] for
   j <= i, nothing above the diagonal.  TG_GRADCHECK checks every d_x and
   d_w against central differences (the upper triangle against 0),
   accumulation into the shadows, and that x, w, y, d_y are untouched;
   then that the upper triangle of d_w keeps its values exactly.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
lower_matvec (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = 0;
      for (int j = 0; j <= i; j++)
	y[i] += w[i * n + j] * x[j];
    }
}

int
main (void)
{
  int n = 5;
  double *w = tg_alloc (n * n), *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (w, n * n, 1, -2, 2);
  tg_fill (x, n, 2, -2, 2);
  TG_GRADCHECK (lower_matvec, &n, w, x, y);

  /* The upper triangle of d_w keeps its values exactly.  */
  double *d_y = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n * n);
  tg_fill (d_y, n, 3, -1, 1);
  tg_fill (d_w, n * n, 4, -1, 1);
  double *pre_w = tg_dup (d_w, n * n);
  lower_matvec (n, w, x, y);
  lower_matvec_grad (n, w, x, y, d_w, d_x, d_y);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      CHECK_AT (d_w[i * n + j] == pre_w[i * n + j], i * n + j);
  return tg_exit ();
}
