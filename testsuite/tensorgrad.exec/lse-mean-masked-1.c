/* { dg-do run } */
/* The mean over the kept rows of each row's log-sum-exp, rows skipped
   with continue and counted in an int: three sums over the rows (the
   count, twice in the result, and the total), the total's terms a max
   and a sum over the row's columns.  The row's sum, which reads the
   row's max, is computed per row once (it once was hoisted over the
   loops of all three sums over the rows: an internal error).
     L = (sum_{kept n} lse (x[n])) / count,
     d_x[n][c] += softmax (x[n])[c] / count for kept n.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
lse_mean (int N, int C, const double *x, const int *keep)
{
  double total = 0.0;
  int count = 0;
  for (int n = 0; n < N; n++)
    {
      if (!keep[n])
        continue;
      double m = -INFINITY;
      for (int c = 0; c < C; c++)
        m = fmax (m, x[n * C + c]);
      double s = 0.0;
      for (int c = 0; c < C; c++)
        s += exp (x[n * C + c] - m);
      total += m + log (s);
      count++;
    }
  return count > 0 ? total / count : 0.0;
}

int
main (void)
{
  int N = 5, C = 3, keep[5] = { 1, 0, 1, 1, 0 };
  double *x = tg_alloc (N * C);
  tg_fill (x, N * C, 1, -2, 2);
  TG_GRADCHECK (lse_mean, &N, &C, x, keep);
  return tg_exit ();
}
