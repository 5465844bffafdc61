/* { dg-do run } */
/* Integers a loop counts under a condition on an integer mask, used after
   the loop: lifted as integer sums, which have no adjoint.
   mmean:    s = sum_{mask[i]} x[i], cnt = #{i : mask[i]}, *out = s / cnt;
             d_x[i] += mask[i] ? d_out / cnt : 0.
   rowmean:  float, a count per row: c_r = #{j : m[r][j] > 0} (c += 2 per
             element, so c = 2 c_r), y[r] = c ? s_r / c : 0;
             d_x[r][j] += m[r][j] > 0 ? d_y[r] / c : 0, and nothing for
             a row without a marked element (c = 0, y[r] = 0).
   Checked by hand: the arrays x are read only where the mask is set, so
   their extents cannot be told and the kernels get no descriptor.  Every
   component against central differences and against the formula, the
   shadows pre-filled (the gradient adds), inputs and outputs unchanged.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
mmean (int n, const int *mask, const double *x, double *out)
{
  double s = 0;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      {
        s += x[i];
        cnt++;
      }
  *out = s / cnt;
}

__attribute__ ((differentiable))
void
rowmean (int R, int n, const int *m, const float *x, float *y)
{
  for (int r = 0; r < R; r++)
    {
      int c = 0;
      float s = 0;
      for (int j = 0; j < n; j++)
        if (m[r * n + j] > 0)
          {
            s += x[r * n + j];
            c += 2;
          }
      y[r] = c ? 2 * s / c : 0;
    }
}

struct mctx
{
  int n;
  const int *mask;
  double *x, out, c;
};

static double
mloss (void *p)
{
  struct mctx *k = p;
  mmean (k->n, k->mask, k->x, &k->out);
  return k->c * k->out;
}

static void
check_mmean (int n, const int *mask)
{
  double *x = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (x, n, n, -2, 2);
  tg_fill (d_x, n, n + 1, -1, 1);
  double out, d_out = 0.75;
  mmean (n, mask, x, &out);
  double *x0 = tg_dup (x, n), *pre = tg_dup (d_x, n), out0 = out;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    cnt += mask[i] != 0;
  mmean_grad (n, mask, x, &out, d_x, &d_out);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK (out == out0);
  CHECK (d_out == 0.75);
  double *g = tg_alloc (n);
  tg_sub (g, d_x, pre, n);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g[i], mask[i] ? 0.75 / cnt : 0.0, 1e-14, 1e-15, i);
  struct mctx k = { n, mask, x, 0, 0.75 };
  tg_fd_check ("x", x, n, mloss, &k, g, TG_RTOL, TG_ATOL);
  free (x), free (d_x), free (x0), free (pre), free (g);
}

struct rctx
{
  int R, n;
  const int *m;
  float *x, *y, *cy;
};

static double
rloss (void *p)
{
  struct rctx *k = p;
  rowmean (k->R, k->n, k->m, k->x, k->y);
  return tg_dot_f (k->cy, k->y, k->R);
}

int
main (void)
{
  int mask1[] = { 1, 0, 1, 1, 0, 0, 1 };
  check_mmean (7, mask1);
  int mask2[] = { 0, 0, 5 };
  check_mmean (3, mask2);
  int mask3[] = { -1 };
  check_mmean (1, mask3);

  /* Row 2 has no marked element.  */
  int R = 4, n = 5, N = R * n;
  int m[] = { 1, 0, 2, 1, 0,
              0, 0, 0, 0, 3,
              0, -1, 0, 0, 0,
              1, 1, 1, 1, 1 };
  float *x = tg_alloc_f (N), *y = tg_alloc_f (R), *cy = tg_alloc_f (R);
  float *d_x = tg_alloc_f (N);
  tg_fill_f (x, N, 1, -2, 2);
  tg_fill_f (cy, R, 2, -1, 1);
  tg_fill_f (d_x, N, 3, -1, 1);
  rowmean (R, n, m, x, y);
  float *x0 = tg_dup_f (x, N), *y0 = tg_dup_f (y, R), *d_y = tg_dup_f (cy, R);
  float *pre = tg_dup_f (d_x, N);
  rowmean_grad (R, n, m, x, y, d_x, d_y);
  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (y, y0, R * sizeof *y);
  CHECK_SAME (d_y, cy, R * sizeof *d_y);
  CHECK (y[2] == 0);
  float *g = tg_alloc_f (N);
  tg_sub_f (g, d_x, pre, N);
  for (int r = 0; r < R; r++)
    {
      int c = 0;
      for (int j = 0; j < n; j++)
        c += m[r * n + j] > 0;
      for (int j = 0; j < n; j++)
        CHECK_NEAR_AT (g[r * n + j], m[r * n + j] > 0 ? cy[r] / c : 0.0f,
                       1e-6, 1e-7, r * n + j);
    }
  struct rctx k = { R, n, m, x, y, cy };
  tg_fd_check_f ("x", x, N, rloss, &k, g, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
