/* { dg-do run } */
/* A by-value double scalar broadcast over a 1-D array: y[i] = a * x[i].
   Shadow double *d_a, accumulated: *d_a += sum_i d_y[i] x[i];
   d_x[i] += a d_y[i].  Checks d_a and every d_x against central
   differences, accumulation into a pre-filled *d_a and d_x, and that x,
   y, d_y are untouched.  Kept with its own central differences, not
   tg_gradcheck's, so that the descriptor path is itself checked: a by-value
   scalar and its shadow.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

struct ctx
{
  int n;
  double a;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  scale (k->n, k->a, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  struct ctx k;
  k.n = n;
  k.a = -1.375;
  k.x = tg_alloc (n);
  k.y = tg_alloc (n);
  k.c = tg_alloc (n);
  tg_fill (k.x, n, 1, -2, 2);
  tg_fill (k.c, n, 2, -1, 1);
  double *d_x = tg_alloc (n), *g_x = tg_alloc (n);
  tg_fill (d_x, n, 3, -1, 1);
  double d_a = 0.75, g_a;

  scale (n, k.a, k.x, k.y);
  double *x0 = tg_dup (k.x, n), *y0 = tg_dup (k.y, n);
  double *d_y = tg_dup (k.c, n), *pre = tg_dup (d_x, n);

  scale_grad (n, k.a, k.x, k.y, &d_a, d_x, d_y);

  CHECK_SAME (k.x, x0, n * sizeof (double));
  CHECK_SAME (k.y, y0, n * sizeof (double));
  CHECK_SAME (d_y, k.c, n * sizeof (double));
  g_a = d_a - 0.75;
  CHECK_NEAR (g_a, tg_dot (k.c, k.x, n), 1e-12, 1e-14);
  tg_sub (g_x, d_x, pre, n);
  tg_fd_check ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", k.x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
