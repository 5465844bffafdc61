/* { dg-do run } */
/* Reads behind a test on counters that keeps the index in bounds
   (lib/passes/zero-guard.c), under AddressSanitizer with arrays of their
   exact size:
   the adjoint of x[i - 1] read where i > 0 was added, as zero, to
   d_x[-1] at i = 0 (a heap-buffer-overflow); it now runs only where the
   test holds.  back: x[i - 1] behind i > 0; stencil: both neighbours
   behind i > 0 && i + 1 < n, in float; rows: the element before in a row,
   behind j > 0 (d_x[i*m - 1] would be the previous row's last element,
   in bounds but wrong... only zero is added, so the values are checked
   by central differences).  Each also with a NULL shadow; the no-opt
   gradients are checked the same way by gradient_noopt below.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
back (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i > 0 ? x[i - 1] * x[i - 1] : 0;
}

__attribute__ ((differentiable))
void
stencil (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i > 0 && i + 1 < n ? x[i - 1] - 2 * x[i] + x[i + 1] * x[i + 1] : 0.0f;
}

__attribute__ ((differentiable))
void
rows (int n, int m, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double v = x[i * m + j] * w[j];
        if (j > 0)
          v += x[i * m + j - 1] * w[j - 1];
        y[i * m + j] = v;
      }
}

int
main (void)
{
  int n = 9, m = 5, r = 3;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  TG_GRADCHECK (back, &n, x, y);
  float *xf = tg_alloc_f (n), *yf = tg_alloc_f (n);
  tg_fill_f (xf, n, 2, -1, 1);
  TG_GRADCHECK (stencil, &n, xf, yf);
  double *xr = tg_alloc (r * m), *w = tg_alloc (m), *yr = tg_alloc (r * m);
  tg_fill (xr, r * m, 3, -1, 1);
  tg_fill (w, m, 4, -1, 1);
  TG_GRADCHECK (rows, &r, &m, xr, w, yr);
  TG_GRADCHECK_NULL (rows, "w", &r, &m, xr, w, yr);
  free (x);
  free (y);
  free (xf);
  free (yf);
  free (xr);
  free (w);
  free (yr);
  return tg_exit ();
}
