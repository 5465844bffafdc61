/* { dg-do run } */
/* long loop counters and an index temporary: k = i * m + j computed in a
   local, then y[k] = x[k] * x[k] * b[j], n x m at run time.
   d_x[k] += 2 d_y x b[j]; d_b[j] += sum_i d_y x^2.  Checks every d_x and
   d_b against central differences, accumulation into pre-filled shadows,
   and that x, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sq_scale (long n, long m, const double *x, const double *b, double *y)
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      {
	long k = i * m + j;
	y[k] = x[k] * x[k] * b[j];
      }
}

struct ctx
{
  long n, m;
  double *x, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  sq_scale (k->n, k->m, k->x, k->b, k->y);
  return tg_dot (k->c, k->y, (int) (k->n * k->m));
}

int
main (void)
{
  long n = 3, m = 5;
  int nm = (int) (n * m);
  double *x = tg_alloc (nm), *b = tg_alloc (m), *y = tg_alloc (nm);
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_b = tg_alloc (m);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (b, m, 2, -2, 2);
  tg_fill (c, nm, 3, -1, 1);
  tg_fill (d_x, nm, 4, -1, 1);
  tg_fill (d_b, m, 5, -1, 1);

  sq_scale (n, m, x, b, y);
  double *x0 = tg_dup (x, nm), *b0 = tg_dup (b, m), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm);
  double *pre_x = tg_dup (d_x, nm), *pre_b = tg_dup (d_b, m);

  sq_scale_grad (n, m, x, b, y, d_x, d_b, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  double *g_x = tg_alloc (nm), *g_b = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_b, d_b, pre_b, m);
  struct ctx k = { n, m, x, b, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, (int) m, loss, &k, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
