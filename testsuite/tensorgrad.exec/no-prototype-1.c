/* { dg-do run } */
/* The gradient called with no prototype: the plugin declares f_grad when
   it has parsed the kernel, so main calls it with the right types (a
   float by-value scalar would be promoted to double by an implicit
   declaration and the call would go wrong).  y[i] = s * expf (x[i]) in
   float with a float s.  *d_s += sum d_y y / s; d_x += d_y y.  Checks d_s
   and every d_x against central differences (float tolerances),
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  Checked by hand: the direct call without a prototype is what
   is tested.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scaled_exp (int n, float s, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = s * expf (x[i]);
}

struct ctx
{
  int n;
  float s;
  float *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  scaled_exp (k->n, k->s, k->x, k->y);
  return tg_dot_f (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  struct ctx k;
  k.n = n;
  k.s = 0.75f;
  k.x = tg_alloc_f (n);
  k.y = tg_alloc_f (n);
  k.c = tg_alloc_f (n);
  tg_fill_f (k.x, n, 1, -1, 1);
  tg_fill_f (k.c, n, 2, -1, 1);
  float *d_x = tg_alloc_f (n), *g_x = tg_alloc_f (n);
  tg_fill_f (d_x, n, 3, -1, 1);
  float d_s = 0.5f, g_s;

  scaled_exp (n, k.s, k.x, k.y);
  float *x0 = tg_dup_f (k.x, n), *y0 = tg_dup_f (k.y, n);
  float *d_y = tg_dup_f (k.c, n), *pre = tg_dup_f (d_x, n);

  scaled_exp_grad (n, k.s, k.x, k.y, &d_s, d_x, d_y);

  CHECK_SAME (k.x, x0, n * sizeof (float));
  CHECK_SAME (k.y, y0, n * sizeof (float));
  CHECK_SAME (d_y, k.c, n * sizeof (float));
  g_s = d_s - 0.5f;
  tg_sub_f (g_x, d_x, pre, n);
  tg_fd_check_f ("s", &k.s, 1, loss, &k, &g_s, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("x", k.x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
