/* { dg-do run } */
/* powf in float with both operands variable over a 2-D flat-indexed nest
   with constant bounds (4 x 3): y[i*3+j] = powf (x[i*3+j], e[j]), base x
   in [0.5, 2], exponent e in [-1.5, 2.5] broadcast along i.
   d_x[i*3+j] += d_y e[j] x^(e[j]-1); d_e[j] += sum_i d_y y log x.  Checks
   every d_x and d_e against central differences (float tolerances),
   accumulation into pre-filled shadows, and that x, e, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
powf_bcast (const float *x, const float *e, float *y)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      y[i * 3 + j] = powf (x[i * 3 + j], e[j]);
}

#define N 12

struct ctx
{
  float *x, *e, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  powf_bcast (k->x, k->e, k->y);
  return tg_dot_f (k->c, k->y, N);
}

int
main (void)
{
  float *x = tg_alloc_f (N), *e = tg_alloc_f (3), *y = tg_alloc_f (N);
  float *c = tg_alloc_f (N), *d_x = tg_alloc_f (N), *d_e = tg_alloc_f (3);
  tg_fill_f (x, N, 1, 0.5, 2.0);
  tg_fill_f (e, 3, 2, -1.5, 2.5);
  tg_fill_f (c, N, 3, -1, 1);
  tg_fill_f (d_x, N, 4, -1, 1);
  tg_fill_f (d_e, 3, 5, -1, 1);

  powf_bcast (x, e, y);
  float *x0 = tg_dup_f (x, N), *e0 = tg_dup_f (e, 3), *y0 = tg_dup_f (y, N);
  float *d_y = tg_dup_f (c, N);
  float *pre_x = tg_dup_f (d_x, N), *pre_e = tg_dup_f (d_e, 3);

  powf_bcast_grad (x, e, y, d_x, d_e, d_y);

  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (e, e0, 3 * sizeof *e);
  CHECK_SAME (y, y0, N * sizeof *y);
  CHECK_SAME (d_y, c, N * sizeof *d_y);
  float *g_x = tg_alloc_f (N), *g_e = tg_alloc_f (3);
  tg_sub_f (g_x, d_x, pre_x, N);
  tg_sub_f (g_e, d_e, pre_e, 3);
  struct ctx k = { x, e, y, c };
  tg_fd_check_f ("x", x, N, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("e", e, 3, loss, &k, g_e, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
