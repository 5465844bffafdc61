/* { dg-do run } */
/* Leaky relu in float, 1-D of run-time length:
   y[i] = x[i] > 0 ? x[i] : 0.01f * x[i].
   d_x[i] += d_y[i] * (x[i] > 0 ? 1 : 0.01).  With no |x| below 0.05 (the
   float finite-difference step stays on one side) checks every d_x
   against central differences (float tolerances), accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched; then, exactly, the
   slope 0.01f of the chosen arm at x = 0.0f.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky_relu (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0.01f * x[i];
}

struct ctx
{
  int n;
  float *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  leaky_relu (k->n, k->x, k->y);
  return tg_dot_f (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n), *c = tg_alloc_f (n);
  float *d_x = tg_alloc_f (n), *g = tg_alloc_f (n);
  tg_fill_away_f (x, n, 1, -2, 2, 0.0, 0.05);
  tg_fill_f (c, n, 2, -1, 1);
  tg_fill_f (d_x, n, 3, -1, 1);

  leaky_relu (n, x, y);
  float *x0 = tg_dup_f (x, n), *y0 = tg_dup_f (y, n);
  float *d_y = tg_dup_f (c, n), *pre = tg_dup_f (d_x, n);

  leaky_relu_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub_f (g, d_x, pre, n);
  /* The small slope must be seen: its contribution is far below the
     float tolerance of TG_ATOL_F, so compare the negative side tightly.  */
  for (int i = 0; i < n; i++)
    if (x[i] < 0)
      CHECK_NEAR_AT (g[i], 0.01f * c[i], 1e-3, 1e-7, i);
  struct ctx k = { n, x, y, c };
  tg_fd_check_f ("x", x, n, loss, &k, g, TG_RTOL_F, TG_ATOL_F);

  x[4] = 0.0f;
  leaky_relu (n, x, y);
  memcpy (d_x, pre, n * sizeof *d_x);
  leaky_relu_grad (n, x, y, d_x, d_y);
  CHECK_NEAR (d_x[4] - pre[4], 0.01f * c[4], 1e-3, 1e-7);
  return tg_exit ();
}
