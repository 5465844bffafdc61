/* { dg-do run } */
/* Unsigned counters and sizes: e[i*m + j] = e[(i-1)*m + j] + sin (x) over
   unsigned i from 1, where GCC writes i - 1 as i + 4294967295 in 32-bit
   arithmetic that wraps.  An index within its array's bounds never
   wraps, so the indices and loop counts are taken exactly (the
   recurrence was refused as written by more than one nest).  Checks d_x
   against central differences.  */

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

struct ctx
{
  double *x, *e, *c;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  colsum (N, M, k->x, k->e);
  return tg_dot (k->c, k->e, N * M);
}

int
main (void)
{
  double x[N * M], e[N * M], c[N * M], d_x[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1.5, 1.5);
  tg_fill (c, N * M, 2, -1, 1);
  colsum (N, M, x, e);
  colsum_grad (N, M, x, e, d_x, c);
  struct ctx k = { x, e, c };
  tg_fd_check ("x", x, N * M, loss, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
