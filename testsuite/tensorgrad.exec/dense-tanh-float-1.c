/* { dg-do run } */
/* A dense layer with bias and tanh in one kernel, in float: the example
   of DESIGN.md section 1 verbatim (float tolerances);
   x n x k, w k x m, b m, y n x m (5 x 4, 4 x 3 at run time);
   float acc = b[j]; for (p < k) acc += x[i*k+p] * w[p*m+j];
   y[i*m+j] = tanhf (acc).  With dz = d_y (1 - y^2):
   d_x[i*k+p] += sum_j dz[i*m+j] w[p*m+j];
   d_w[p*m+j] += sum_i x[i*k+p] dz[i*m+j]; d_b[j] += sum_i dz[i*m+j].
   Checks every d_x, d_w and d_b against central differences,
   accumulation into pre-filled shadows, and that x, w, b, y, d_y are
   untouched.  Kept with its own central differences, not tg_gradcheck's, so
   that the descriptor path is itself checked: a float kernel (DESIGN.md's
   example).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_tanh (int n, int m, int k,
            const float *x, const float *w, const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float acc = b[j];
      for (int p = 0; p < k; p++)
        acc += x[i*k + p] * w[p*m + j];
      y[i*m + j] = tanhf (acc);
    }
}

struct ctx
{
  int n, m, k;
  float *x, *w, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  dense_tanh (t->n, t->m, t->k, t->x, t->w, t->b, t->y);
  return tg_dot_f (t->c, t->y, t->n * t->m);
}

int
main (void)
{
  int n = 5, m = 3, k = 4, nx = n * k, nw = k * m, ny = n * m;
  float *x = tg_alloc_f (nx), *w = tg_alloc_f (nw), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (ny), *c = tg_alloc_f (ny);
  float *d_x = tg_alloc_f (nx), *d_w = tg_alloc_f (nw), *d_b = tg_alloc_f (m);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (w, nw, 2, -1, 1);
  tg_fill_f (b, m, 3, -1, 1);
  tg_fill_f (c, ny, 4, -1, 1);
  tg_fill_f (d_x, nx, 5, -1, 1);
  tg_fill_f (d_w, nw, 6, -1, 1);
  tg_fill_f (d_b, m, 7, -1, 1);

  dense_tanh (n, m, k, x, w, b, y);
  float *x0 = tg_dup_f (x, nx), *w0 = tg_dup_f (w, nw), *b0 = tg_dup_f (b, m);
  float *y0 = tg_dup_f (y, ny), *d_y = tg_dup_f (c, ny);
  float *pre_x = tg_dup_f (d_x, nx), *pre_w = tg_dup_f (d_w, nw);
  float *pre_b = tg_dup_f (d_b, m);

  dense_tanh_grad (n, m, k, x, w, b, y, d_x, d_w, d_b, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (w, w0, nw * sizeof *w);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  float *g_x = tg_alloc_f (nx), *g_w = tg_alloc_f (nw), *g_b = tg_alloc_f (m);
  tg_sub_f (g_x, d_x, pre_x, nx);
  tg_sub_f (g_w, d_w, pre_w, nw);
  tg_sub_f (g_b, d_b, pre_b, m);
  struct ctx t = { n, m, k, x, w, b, y, c };
  tg_fd_check_f ("x", x, nx, loss, &t, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("w", w, nw, loss, &t, g_w, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("b", b, m, loss, &t, g_b, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
