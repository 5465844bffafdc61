/* { dg-do run } */
/* The first-order linear filter of linear-filter-1.c in float: the
   recurrence and its reversed gradient computed in the kernel's own
   type, a a by-value float (d_a a float *), n = 9 at run time:
     y[0] = x[0];  y[i] = a y[i-1] + (1 - a) x[i].
   g_i = d_y[i] + a g_{i+1}; d_x[i] += (1 - a) g_i (i > 0), d_x[0] += g_0;
   *d_a += sum_{i>0} g_i (y[i-1] - x[i]).  Checks every d_x and d_a
   against float central differences (tg_fd_check_f, float tolerances),
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ema_f (int n, float a, const float *x, float *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + (1 - a) * x[i];
}

struct ctx
{
  int n;
  float a;
  float *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  ema_f (k->n, k->a, k->x, k->y);
  return tg_dot_f (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  float a = 0.7f, d_a = -0.5f;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n), *cy = tg_alloc_f (n);
  float *d_x = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -2, 2);
  tg_fill_f (cy, n, 2, -1, 1);
  tg_fill_f (d_x, n, 3, -1, 1);

  ema_f (n, a, x, y);
  float *x0 = tg_dup_f (x, n), *y0 = tg_dup_f (y, n), *d_y = tg_dup_f (cy, n);
  float *pre_x = tg_dup_f (d_x, n);

  ema_f_grad (n, a, x, y, &d_a, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  float *g_x = tg_alloc_f (n), g_a = d_a + 0.5f;
  tg_sub_f (g_x, d_x, pre_x, n);
  struct ctx k = { n, a, x, y, cy };
  tg_fd_check_f ("x", x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
