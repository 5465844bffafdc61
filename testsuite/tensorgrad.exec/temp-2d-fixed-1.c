/* { dg-do run } */
/* A fixed-size 2-D temporary double t[8][8] (n, m <= 8) holding an outer
   product, read by a later nest through its transpose, n x m = 5 x 3 at
   run time:
     t[i][j] = a[i] * b[j];   y[j*n + i] = sin (t[i][j]) + t[i][j].
   d_a[i] += sum_j d_y[j*n+i] (cos t + 1) b[j];
   d_b[j] += sum_i d_y[j*n+i] (cos t + 1) a[i].
   Checks every d_a and d_b against central differences, accumulation
   into pre-filled shadows, and that a, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_2d_fixed (int n, int m, const double *a, const double *b, double *y)
{
  double t[8][8];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[i][j] = a[i] * b[j];
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      y[j * n + i] = sin (t[i][j]) + t[i][j];
}

struct ctx
{
  int n, m;
  double *a, *b, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  temp_2d_fixed (k->n, k->m, k->a, k->b, k->y);
  return tg_dot (k->cy, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *a = tg_alloc (n), *b = tg_alloc (m), *y = tg_alloc (nm);
  double *cy = tg_alloc (nm), *d_a = tg_alloc (n), *d_b = tg_alloc (m);
  tg_fill (a, n, 1, -2, 2);
  tg_fill (b, m, 2, -2, 2);
  tg_fill (cy, nm, 3, -1, 1);
  tg_fill (d_a, n, 4, -1, 1);
  tg_fill (d_b, m, 5, -1, 1);

  temp_2d_fixed (n, m, a, b, y);
  double *a0 = tg_dup (a, n), *b0 = tg_dup (b, m), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (cy, nm);
  double *pre_a = tg_dup (d_a, n), *pre_b = tg_dup (d_b, m);

  temp_2d_fixed_grad (n, m, a, b, y, d_a, d_b, d_y);

  CHECK_SAME (a, a0, n * sizeof *a);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, cy, nm * sizeof *d_y);
  double *g_a = tg_alloc (n), *g_b = tg_alloc (m);
  tg_sub (g_a, d_a, pre_a, n);
  tg_sub (g_b, d_b, pre_b, m);
  struct ctx k = { n, m, a, b, y, cy };
  tg_fd_check ("a", a, n, loss, &k, g_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &k, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
