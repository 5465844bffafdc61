/* { dg-do run } */
/* A select on a loop counter against an integer parameter, 1-D:
   y[i] = (i < k) ? x[i] : 2 * x[i], so d_x[i] += d_y[i] for i < k and
   2 d_y[i] from k on.  TG_GRADCHECK checks every d_x against central
   differences (k = 3 of n = 8, then k = 0 and k = n), accumulation into
   d_x, and that x, y, d_y are untouched; then d_x against the formula.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
split_scale (int n, int k, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = (i < k) ? x[i] : 2 * x[i];
}

/* Check at N and K, then against the exact formula.  */
static void
run (int n, int k)
{
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1 + k, -2, 2);
  TG_GRADCHECK (split_scale, &n, &k, x, y);

  tg_fill (c, n, 2 + k, -1, 1);
  split_scale (n, k, x, y);
  split_scale_grad (n, k, x, y, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (d_x[i], i < k ? c[i] : 2 * c[i], 1e-12, 1e-14, i);
}

int
main (void)
{
  run (8, 3);
  run (8, 0);
  run (8, 8);
  return tg_exit ();
}
