/* { dg-do run } */
/* How to rewrite (README): an index that is not affine in the loop
   counters.  The rewrites of tensorgrad.err/rewrite-index.c: tri_matvec
   reads L through the row offsets row[i] = i (i + 1) / 2 the caller
   computes, resample through the positions pos[i] = (int) (i * scale)
   (scale has no derivative there anyway: the index is piecewise
   constant in it), both gathers; swap_pairs loops over the pairs and
   stores both.  Checked: y equals the originals' (compiled here as plain
   C), the gathers' gradients against central differences (no
   descriptor, checked by hand), swap_pairs' through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define tri_matvec tri_matvec_orig
#define swap_pairs swap_pairs_orig
#define resample resample_orig
#include "tensorgrad.err/rewrite-index.c"
#undef tri_matvec
#undef swap_pairs
#undef resample
#undef differentiable

__attribute__ ((differentiable))
void
tri_matvec (int n, const int *row, const double *L, const double *v,
            double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j <= i; j++)
        s += L[row[i] + j] * v[j];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
swap_pairs (int n, const double *x, double *y)
{
  for (int k = 0; k < n; k++)
    {
      y[2 * k] = x[2 * k + 1];
      y[2 * k + 1] = x[2 * k];
    }
}

__attribute__ ((differentiable))
void
resample (int n, const int *pos, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[pos[i]];
}

enum { N = 4, NL = N * (N + 1) / 2, NX = 9 };
static int row[N], pos[N];
static double L[NL], v[N], x[NX], y[N], c[N];
static int which;

static double
loss (void *unused)
{
  (void) unused;
  if (which)
    resample (N, pos, x, y);
  else
    tri_matvec (N, row, L, v, y);
  return tg_dot (c, y, N);
}

int
main (void)
{
  double scale = 2.3, y0[N];
  for (int i = 0; i < N; i++)
    {
      row[i] = i * (i + 1) / 2;
      pos[i] = (int) (i * scale);
    }
  tg_fill (L, NL, 1, -1, 1);
  tg_fill (v, N, 2, -1, 1);
  tg_fill (x, NX, 3, -1, 1);
  tg_fill (c, N, 4, -1, 1);

  which = 0;
  tri_matvec_orig (N, L, v, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  double d_L[NL] = { 0 }, d_v[N] = { 0 }, d_y[N];
  memcpy (d_y, c, sizeof c);
  tri_matvec_grad (N, row, L, v, y, d_L, d_v, d_y);
  tg_fd_check ("L", L, NL, loss, NULL, d_L, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, N, loss, NULL, d_v, TG_RTOL, TG_ATOL);

  which = 1;
  resample_orig (N, scale, x, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[NX] = { 0 };
  resample_grad (N, pos, x, y, d_x, d_y);
  tg_fd_check ("x", x, NX, loss, NULL, d_x, TG_RTOL, TG_ATOL);

  int n = 3;
  double *xs = tg_alloc (2 * n), *ys = tg_alloc (2 * n), *ys0 = tg_alloc (2 * n);
  tg_fill (xs, 2 * n, 5, -1, 1);
  swap_pairs_orig (n, xs, ys0);
  swap_pairs (n, xs, ys);
  CHECK_SAME (ys, ys0, 2 * n * sizeof *ys);
  TG_GRADCHECK (swap_pairs, &n, xs, ys);
  return tg_exit ();
}
