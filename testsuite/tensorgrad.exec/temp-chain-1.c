/* { dg-do run } */
/* A chain of three nests through two local temporaries, a VLA t1[n] and
   a fixed-size t2[16] (n <= 16), the last nest reading both (a DAG, not
   just a chain), n = 7 at run time:
     t1[i] = exp (x[i]);  t2[i] = t1[i] * w[i] + 1;
     y[i] = log (t2[i]) * t1[i].
   d_x[i] += d_y[i] t1 (w t1 / t2 + log t2);  d_w[i] += d_y[i] t1^2 / t2.
   TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_chain (int n, const double *x, const double *w, double *y)
{
  double t1[n];
  double t2[16];
  for (int i = 0; i < n; i++)
    t1[i] = exp (x[i]);
  for (int i = 0; i < n; i++)
    t2[i] = t1[i] * w[i] + 1;
  for (int i = 0; i < n; i++)
    y[i] = log (t2[i]) * t1[i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (w, n, 2, 0.2, 2);
  TG_GRADCHECK (temp_chain, &n, x, w, y);
  return tg_exit ();
}
