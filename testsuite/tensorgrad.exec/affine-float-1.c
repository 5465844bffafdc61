/* { dg-do run } */
/* Float by-value scalars, unary minus and a constant, 1-D:
   y[i] = -(a * x[i]) + b * 0.5f, a and b float by value, shadows float
   *d_a, *d_b.  *d_a += -sum d_y x; *d_b += 0.5 sum d_y; d_x += -a d_y.
   Checks d_a, d_b and every d_x against central differences (float
   tolerances), accumulation into pre-filled shadows, and that x, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
affine_f (int n, float a, const float *x, float b, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = -(a * x[i]) + b * 0.5f;
}

struct ctx
{
  int n;
  float a, b;
  float *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  affine_f (k->n, k->a, k->x, k->b, k->y);
  return tg_dot_f (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  struct ctx k;
  k.n = n;
  k.a = 1.25f;
  k.b = -0.625f;
  k.x = tg_alloc_f (n);
  k.y = tg_alloc_f (n);
  k.c = tg_alloc_f (n);
  tg_fill_f (k.x, n, 1, -2, 2);
  tg_fill_f (k.c, n, 2, -1, 1);
  float *d_x = tg_alloc_f (n), *g_x = tg_alloc_f (n);
  tg_fill_f (d_x, n, 3, -1, 1);
  float d_a = 0.5f, d_b = -0.25f, g_a, g_b;

  affine_f (n, k.a, k.x, k.b, k.y);
  float *x0 = tg_dup_f (k.x, n), *y0 = tg_dup_f (k.y, n);
  float *d_y = tg_dup_f (k.c, n), *pre = tg_dup_f (d_x, n);

  affine_f_grad (n, k.a, k.x, k.b, k.y, &d_a, d_x, &d_b, d_y);

  CHECK_SAME (k.x, x0, n * sizeof (float));
  CHECK_SAME (k.y, y0, n * sizeof (float));
  CHECK_SAME (d_y, k.c, n * sizeof (float));
  g_a = d_a - 0.5f;
  g_b = d_b + 0.25f;
  tg_sub_f (g_x, d_x, pre, n);
  tg_fd_check_f ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("b", &k.b, 1, loss, &k, &g_b, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("x", k.x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
