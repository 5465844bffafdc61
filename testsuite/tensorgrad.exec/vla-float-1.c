/* { dg-do run } */
/* Float VLA parameters, n x m at run time, subtraction, division and a
   constant: y[i][j] = (x[i][j] - w[i][j]) / (w[i][j] + 3.0f), w in [0.5,
   2].  d_x += d_y / (w + 3); d_w += -d_y (x + 3) / (w + 3)^2.  TG_GRADCHECK
   checks every d_x and d_w against central differences (in float
   precision), accumulation into pre-filled shadows, and that x, w, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
vla_ratio (int n, int m, const float x[n][m], const float w[n][m],
	   float y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i][j] = (x[i][j] - w[i][j]) / (w[i][j] + 3.0f);
}

int
main (void)
{
  int n = 3, m = 5;
  float *x = tg_alloc_f (n * m), *w = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  tg_fill_f (w, n * m, 2, 0.5, 2);
  TG_GRADCHECK (vla_ratio, &n, &m, x, w, y);
  return tg_exit ();
}
