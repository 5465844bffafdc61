/* { dg-do run } */
/* Unsigned counters and sizes: e[i*m + j] = e[(i-1)*m + j] + sin (x) over
   unsigned i from 1, where GCC writes i - 1 as i + 4294967295 in 32-bit
   arithmetic that wraps.  An index within its array's bounds never
   wraps, so the indices and loop counts are taken exactly (the
   recurrence was refused as written by more than one nest).  With
   d_e the output shadow, d_x[k*m+j] += cos (x[k*m+j])
   sum_{i>k} d_e[i*m+j] for k < n - 1.  TG_GRADCHECK checks d_x against
   central differences, accumulation into d_x, and that x, e and d_e are
   untouched; then that the last row of x, read by no step, gets
   nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
colsum (unsigned n, unsigned m, const double *x, double *e)
{
  for (unsigned j = 0; j < m; j++)
    e[j] = 0;
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = 0; j < m; j++)
      e[i * m + j] = e[(i - 1) * m + j] + sin (x[(i - 1) * m + j]);
}

enum { N = 4, M = 3 };

int
main (void)
{
  unsigned n = N, m = M;
  double x[N * M], e[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1.5, 1.5);
  TG_GRADCHECK (colsum, &n, &m, x, e);

  /* The last row of x, read by no step, lies past the descriptor's
     extent: its d_x gets nothing.  */
  double c[N * M], d_x[N * M] = { 0 };
  tg_fill (c, N * M, 2, -1, 1);
  colsum (N, M, x, e);
  colsum_grad (N, M, x, e, d_x, c);
  for (int j = 0; j < M; j++)
    CHECK_AT (d_x[(N - 1) * M + j] == 0, j);
  return tg_exit ();
}
