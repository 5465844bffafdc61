/* { dg-do run } */
/* Matrix-vector product y = A x, A n x m (5 x 3 at run time):
   for (i < n) { double acc = 0; for (j < m) acc += a[i*m+j] * x[j];
   y[i] = acc; }.  d_a[i*m+j] += d_y[i] x[j];
   d_x[j] += sum_i d_y[i] a[i*m+j].  Checks every d_a and d_x against
   central differences, accumulation into pre-filled shadows, and that
   a, x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
matvec (int n, int m, const double *a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double acc = 0;
      for (int j = 0; j < m; j++)
	acc += a[i * m + j] * x[j];
      y[i] = acc;
    }
}

struct ctx
{
  int n, m;
  double *a, *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  matvec (k->n, k->m, k->a, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *a = tg_alloc (nm), *x = tg_alloc (m), *y = tg_alloc (n);
  double *c = tg_alloc (n), *d_a = tg_alloc (nm), *d_x = tg_alloc (m);
  tg_fill (a, nm, 1, -2, 2);
  tg_fill (x, m, 2, -2, 2);
  tg_fill (c, n, 3, -1, 1);
  tg_fill (d_a, nm, 4, -1, 1);
  tg_fill (d_x, m, 5, -1, 1);

  matvec (n, m, a, x, y);
  double *a0 = tg_dup (a, nm), *x0 = tg_dup (x, m), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n);
  double *pre_a = tg_dup (d_a, nm), *pre_x = tg_dup (d_x, m);

  matvec_grad (n, m, a, x, y, d_a, d_x, d_y);

  CHECK_SAME (a, a0, nm * sizeof *a);
  CHECK_SAME (x, x0, m * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  double *g_a = tg_alloc (nm), *g_x = tg_alloc (m);
  tg_sub (g_a, d_a, pre_a, nm);
  tg_sub (g_x, d_x, pre_x, m);
  struct ctx k = { n, m, a, x, y, c };
  tg_fd_check ("a", a, nm, loss, &k, g_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, m, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
