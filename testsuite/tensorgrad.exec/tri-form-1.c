/* { dg-do run } */
/* A quadratic form over the lower triangle and the diagonal, written
   with an else-if on the counters: the diagonal's guard reads the
   first test twice (j >= i, then i == j), so the gradient's guard
   shares it.  GCC 12.2 at -O2 once dropped the diagonal's terms of the
   gradient built from that guard as one bitwise expression (the
   emitter now builds && and || as the C front end does, short-circuit).
     s = sum_{j < i} A[i][j] x[j] + sum_i A[i][i] x[i],
     d_A[i][j] += d_s x[j] for j <= i,  d_x[j] += d_s sum_{i >= j} A[i][j].
   The same with a float matrix and a strict upper part.  */

#include "tg-test.h"

__attribute__ ((differentiable))
double
tri_form (int n, const double *A, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
        if (j < i)
          s += A[i * n + j] * x[j];
        else if (j == i)
          s += A[i * n + i] * x[i];
      }
  return s;
}

__attribute__ ((differentiable))
void
upper_diag (int n, const float *A, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < n; j++)
        {
          if (j > i)
            s += A[i * n + j] * x[j];
          else if (j == i)
            s += 2.0f * A[i * n + j] * x[j];
        }
      y[i] = s;
    }
}

int
main (void)
{
  int n = 4;
  double *A = tg_alloc (n * n), *x = tg_alloc (n);
  tg_fill (A, n * n, 1, -1, 1);
  tg_fill (x, n, 2, -1, 1);
  TG_GRADCHECK (tri_form, &n, A, x);
  float *Af = tg_alloc_f (n * n), *xf = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (Af, n * n, 3, -1, 1);
  tg_fill_f (xf, n, 4, -1, 1);
  TG_GRADCHECK (upper_diag, &n, Af, xf, y);
  return tg_exit ();
}
