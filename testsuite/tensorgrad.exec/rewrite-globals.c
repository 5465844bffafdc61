/* { dg-do run } */
/* How to rewrite (README): a kernel that reads variables of static
   storage that may change.  The rewrites of
   tensorgrad.err/rewrite-globals.c: the weights W and the gain, which
   are trained, become parameters (and get shadows); the permutation and
   the smoothing weights, which never change, become constant tables
   with their initializers in this file (static const), read as
   constants, so those kernels keep their signatures.  Checked: the
   results equal the originals' (compiled here as plain C, with the same
   globals), and the gradients through the descriptors (permute,
   a gather through a table, has none: checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define layer layer_orig
#define permute permute_orig
#define smooth smooth_orig
#define perm perm_global
#define W W_global
#define gain gain_global
#include "tensorgrad.err/rewrite-globals.c"
#undef perm
#undef W
#undef gain
#undef layer
#undef permute
#undef smooth
#undef differentiable

__attribute__ ((differentiable))
void
layer (int n, const double *W, double gain, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++)
      {
        double s = 0;
        for (int k = 0; k < 3; k++)
          s += x[i * 3 + k] * W[k * 2 + j];
        y[i * 2 + j] = tanh (gain * s);
      }
}

static const int perm[3] = { 2, 0, 1 };

__attribute__ ((differentiable))
void
permute (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      y[i * 3 + k] = x[i * 3 + perm[k]];
}

__attribute__ ((differentiable))
void
smooth (int n, const double *x, double *y)
{
  static const double w[3] = { 0.25, 0.5, 0.25 };
  for (int i = 0; i < n - 2; i++)
    y[i] = w[0] * x[i] + w[1] * x[i + 1] + w[2] * x[i + 2];
}

enum { N = 4 };
static double xp[N * 3], yp[N * 3], cp[N * 3];

static double
loss (void *unused)
{
  (void) unused;
  permute (N, xp, yp);
  return tg_dot (cp, yp, N * 3);
}

int
main (void)
{
  int n = N;
  tg_fill (W_global, 6, 1, -1, 1);
  double *x = tg_alloc (n * 3), *y = tg_alloc (n * 3), *y0 = tg_alloc (n * 3);
  tg_fill (x, n * 3, 2, -1, 1);
  layer_orig (n, x, y0);
  layer (n, W_global, gain_global, x, y);
  CHECK_SAME (y, y0, n * 2 * sizeof *y);
  TG_GRADCHECK (layer, &n, W_global, &gain_global, x, y);

  memcpy (xp, x, sizeof xp);
  tg_fill (cp, N * 3, 3, -1, 1);
  permute_orig (n, x, y0);
  loss (NULL);
  CHECK_SAME (yp, y0, sizeof yp);
  double d_x[N * 3] = { 0 }, d_y[N * 3];
  memcpy (d_y, cp, sizeof cp);
  permute_grad (N, xp, yp, d_x, d_y);
  tg_fd_check ("x", xp, N * 3, loss, NULL, d_x, TG_RTOL, TG_ATOL);

  smooth_orig (n, x, y0);
  smooth (n, x, y);
  CHECK_SAME (y, y0, (n - 2) * sizeof *y);
  TG_GRADCHECK (smooth, &n, x, y);
  return tg_exit ();
}
