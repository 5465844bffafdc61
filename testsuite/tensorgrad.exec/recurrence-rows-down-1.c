/* { dg-do run } */
/* Row-wise recurrences counting down, each row seeded by its last
   element: the seed writes column m - 1 and the recurrence columns
   m - 2 down to 0 of rows of m elements, different columns (they were
   refused as written by more than one nest that may meet: the column of
   the recurrence falls with its counter).  Gradients:
   suffix_rows (double, flat indices): y[i*m+j] = prod_{k >= j} x[i*m+k],
     d_x[i*m+j] += sum_{k <= j} d_y[i*m+k] y[i*m+k] / x[i*m+j];
   filter_rows (float, row pointers, a the decay):
     z[c][t] = a z[c][t+1] + (1 - a) u[c][t], with g[t] = d_z[c][t]
     + a g[t-1] (g[-1] = 0): d_u[c][t] += (1 - a) g[t] (t < T - 1),
     d_u[c][T-1] += g[T-1]; *d_a += sum_{t < T-1} g[t] (z[c][t+1] - u[c][t]).
   TG_GRADCHECK checks them against central differences; the NULL
   variant drops d_a.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
suffix_rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i * m + m - 1] = x[i * m + m - 1];
      for (int j = m - 2; j >= 0; j--)
	y[i * m + j] = y[i * m + j + 1] * x[i * m + j];
    }
}

__attribute__ ((differentiable))
void
filter_rows (int C, int T, float a, const float *u, float *z)
{
  for (int c = 0; c < C; c++)
    {
      const float *uc = u + c * T;
      float *zc = z + c * T;
      zc[T - 1] = uc[T - 1];
      for (int t = T - 2; t >= 0; t--)
	zc[t] = a * zc[t + 1] + (1 - a) * uc[t];
    }
}

int
main (void)
{
  int n = 3, m = 5;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, 0.5, 1.5);
  TG_GRADCHECK (suffix_rows, &n, &m, x, y);

  int C = 2, T = 7;
  float a = 0.7f;
  float *u = tg_alloc_f (C * T), *z = tg_alloc_f (C * T);
  tg_fill_f (u, C * T, 2, -1, 1);
  TG_GRADCHECK (filter_rows, &C, &T, &a, u, z);
  TG_GRADCHECK_NULL (filter_rows, "a", &C, &T, &a, u, z);
  return tg_exit ();
}
