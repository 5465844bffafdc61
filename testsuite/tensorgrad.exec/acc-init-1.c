/* { dg-do run } */
/* A scalar accumulator initialised from an input value, m = 3 outputs,
   k = 4 terms at run time:
   double acc = b[j]; for (p < k) acc += x[p] * w[p*m+j]; y[j] = acc;
   d_b[j] += d_y[j]; d_x[p] += sum_j d_y[j] w[p*m+j];
   d_w[p*m+j] += d_y[j] x[p].  TG_GRADCHECK checks every d_x, d_w and d_b
   against central differences, accumulation into pre-filled shadows, and
   that x, w, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
acc_init (int m, int k, const double *x, const double *w, const double *b,
	  double *y)
{
  for (int j = 0; j < m; j++)
    {
      double acc = b[j];
      for (int p = 0; p < k; p++)
	acc += x[p] * w[p * m + j];
      y[j] = acc;
    }
}

int
main (void)
{
  int m = 3, k = 4;
  double *x = tg_alloc (k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (m);
  tg_fill (x, k, 1, -2, 2);
  tg_fill (w, k * m, 2, -2, 2);
  tg_fill (b, m, 3, -2, 2);
  TG_GRADCHECK (acc_init, &m, &k, x, w, b, y);
  return tg_exit ();
}
