/* { dg-do run } */
/* A chain of three nests through two local temporaries, a VLA t1[n] and
   a fixed-size t2[16] (n <= 16), the last nest reading both (a DAG, not
   just a chain), n = 7 at run time:
     t1[i] = exp (x[i]);  t2[i] = t1[i] * w[i] + 1;
     y[i] = log (t2[i]) * t1[i].
   d_x[i] += d_y[i] t1 (w t1 / t2 + log t2);  d_w[i] += d_y[i] t1^2 / t2.
   Checks every d_x and d_w against central differences, accumulation
   into pre-filled shadows, and that x, w, y, d_y are untouched.  */

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

struct ctx
{
  int n;
  double *x, *w, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  temp_chain (k->n, k->x, k->w, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *cy = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (w, n, 2, 0.2, 2);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);
  tg_fill (d_w, n, 5, -1, 1);

  temp_chain (n, x, w, y);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, n);

  temp_chain_grad (n, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n), *g_w = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, w, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, n, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
