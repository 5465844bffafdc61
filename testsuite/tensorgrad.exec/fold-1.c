/* { dg-do run } */
/* An adjoint temporary that one statement reads, each element once, is
   the sum of its contributions there (the fold pass): the gradient of an
   in-place softmax over rows (y = exp (x - max), s += y, y *= 1 / s;
   float and double) runs two loops over a row, the sum and the update,
   with no row-sized temporary for the adjoint of the exponentials (the
   dump scans the fold notes).  A temporary read by two statements (the
   adjoint of products normalized in place, which both factors' adjoints
   read) is not folded, and its gradient is right too.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
smax_f (int R, int N, const float *x, float *y)
{
  for (int r = 0; r < R; r++)
    {
      const float *xr = x + r * N;
      float *yr = y + r * N;
      float m = xr[0];
      for (int i = 1; i < N; i++)
        m = fmaxf (m, xr[i]);
      float s = 0;
      for (int i = 0; i < N; i++)
        {
          yr[i] = expf (xr[i] - m);
          s += yr[i];
        }
      float inv = 1.0f / s;
      for (int i = 0; i < N; i++)
        yr[i] *= inv;
    }
}

__attribute__ ((differentiable))
void
smax_d (int R, int N, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      double m = -1e300;
      for (int i = 0; i < N; i++)
        if (x[r * N + i] > m)
          m = x[r * N + i];
      double s = 0;
      for (int i = 0; i < N; i++)
        s += y[r * N + i] = exp (x[r * N + i] - m);
      for (int i = 0; i < N; i++)
        y[r * N + i] /= s;
    }
}

/* Products normalized in place: the adjoint of the products is read by
   both factors' adjoints, two readers, and stays an array.  */
__attribute__ ((differentiable))
void
prod_norm (int R, int N, const double *a, const double *b, double *y)
{
  for (int r = 0; r < R; r++)
    {
      double s = 0;
      for (int i = 0; i < N; i++)
        s += y[r * N + i] = a[r * N + i] * b[r * N + i] + 2;
      for (int i = 0; i < N; i++)
        y[r * N + i] /= s;
    }
}

int
main (void)
{
  int R = 3, N = 7;
  float *xf = tg_alloc_f (R * N), *yf = tg_alloc_f (R * N);
  tg_fill_f (xf, R * N, 1, -2, 2);
  TG_GRADCHECK (smax_f, &R, &N, xf, yf);
  double *x = tg_alloc (R * N), *y = tg_alloc (R * N), *b = tg_alloc (R * N);
  tg_fill (x, R * N, 2, -2, 2);
  tg_fill (b, R * N, 3, -1, 1);
  TG_GRADCHECK (smax_d, &R, &N, x, y);
  TG_GRADCHECK (prod_norm, &R, &N, x, b, y);
  TG_GRADCHECK_NULL (prod_norm, "b", &R, &N, x, b, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "fold: d_y.v1, read once, is the sum of its 2 contribution\\(s\\) where it is read" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "fold: " 2 } } */
