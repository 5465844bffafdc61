/* { dg-do run } */
/* A float column mean (reduction over axis 0) of an n x m matrix, 5 x 3
   at run time, float accumulator:
   for (j < m) { float s = 0.0f; for (i < n) s += x[i*m+j];
   y[j] = s / n; }.  d_x[i*m+j] += d_y[j] / n.  Checks every d_x against
   central differences (float tolerances), accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
colmean_f (int n, int m, const float *x, float *y)
{
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
	s += x[i * m + j];
      y[j] = s / n;
    }
}

struct ctx
{
  int n, m;
  float *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  colmean_f (k->n, k->m, k->x, k->y);
  return tg_dot_f (k->c, k->y, k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  float *x = tg_alloc_f (nm), *y = tg_alloc_f (m), *c = tg_alloc_f (m);
  float *d_x = tg_alloc_f (nm), *g = tg_alloc_f (nm);
  tg_fill_f (x, nm, 1, -2, 2);
  tg_fill_f (c, m, 2, -1, 1);
  tg_fill_f (d_x, nm, 3, -1, 1);

  colmean_f (n, m, x, y);
  float *x0 = tg_dup_f (x, nm), *y0 = tg_dup_f (y, m);
  float *d_y = tg_dup_f (c, m), *pre = tg_dup_f (d_x, nm);

  colmean_f_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, m * sizeof *y);
  CHECK_SAME (d_y, c, m * sizeof *d_y);
  tg_sub_f (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check_f ("x", x, nm, loss, &k, g, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
