/* { dg-do run } */
/* { dg-additional-sources "global-bound-1-aux.c" } */
/* Global integers as loop bounds and index terms, read when the kernel
   and its gradient run (the gradient reads them as the forward left
   them; they have no adjoint and are not in its signature).
   square:  y[i] = x[i]^2 for i < NB, NB a global int set by the caller:
            d_x[i] += 2 x[i] d_y[i].
   shift:   float, y[i] = s * x[i + OFF] for i < n, OFF a global long:
            d_x[i + OFF] += s d_y[i], d_s += sum_i x[i + OFF] d_y[i].
   rows:    double, ROWS an extern const int defined in the aux file (its
            value is not visible here): y[r] = sum_j w[r*m+j] x[j]:
            d_w[r*m+j] += x[j] d_y[r], d_x[j] += sum_r w[r*m+j] d_y[r].
   The extents depend on globals, so these kernels have no descriptor:
   the gradients are checked by hand against central differences.  */

#include "tg-test.h"

int NB = 4;
long OFF = 2;
extern const int ROWS;

__attribute__ ((differentiable))
void
square (const double *x, double *y)
{
  for (int i = 0; i < NB; i++)
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable))
void
shift (int n, float s, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = s * x[i + OFF];
}

__attribute__ ((differentiable))
void
rows (int m, const double *w, const double *x, double *y)
{
  for (int r = 0; r < ROWS; r++)
    {
      double acc = 0;
      for (int j = 0; j < m; j++)
        acc += w[r * m + j] * x[j];
      y[r] = acc;
    }
}

enum { MAXN = 16 };
static double X[MAXN], Y[MAXN], C[MAXN], W[MAXN * MAXN];
static float XF[MAXN], YF[MAXN], CF[MAXN], SF;
static int N, M;

static double
loss_square (void *v)
{
  (void) v;
  square (X, Y);
  return tg_dot (C, Y, NB);
}

static double
loss_shift (void *v)
{
  (void) v;
  shift (N, SF, XF, YF);
  return tg_dot_f (CF, YF, N);
}

static double
loss_rows (void *v)
{
  (void) v;
  rows (M, W, X, Y);
  return tg_dot (C, Y, ROWS);
}

int
main (void)
{
  /* NB set at run time, after the kernel was compiled with NB = 4.  */
  NB = 7;
  tg_fill (X, NB, 1, -2, 2);
  tg_fill (C, NB, 2, -1, 1);
  square (X, Y);
  double dx[MAXN], pre[MAXN], g[MAXN], dy[MAXN], x0[MAXN];
  tg_fill (dx, MAXN, 3, -1, 1);
  memcpy (pre, dx, sizeof dx);
  memcpy (dy, C, sizeof dy);
  memcpy (x0, X, sizeof x0);
  square_grad (X, Y, dx, dy);
  CHECK_SAME (X, x0, sizeof X);
  CHECK_SAME (dy, C, sizeof dy);
  tg_sub (g, dx, pre, MAXN);
  tg_fd_check ("x", X, NB, loss_square, NULL, g, TG_RTOL, TG_ATOL);
  /* Past NB, nothing is added.  */
  for (int i = NB; i < MAXN; i++)
    CHECK_NEAR (g[i], 0.0, 0, 0);

  N = 5;
  OFF = 3;
  SF = 1.25f;
  tg_fill_f (XF, N + OFF, 4, -1, 1);
  tg_fill_f (CF, N, 5, -1, 1);
  shift (N, SF, XF, YF);
  float dxf[MAXN] = { 0 }, dyf[MAXN], ds = 0.5f, gs;
  memcpy (dyf, CF, sizeof dyf);
  shift_grad (N, SF, XF, YF, &ds, dxf, dyf);
  gs = ds - 0.5f;
  double gsd = gs;
  double sd = SF;
  /* d_s through a double copy of s.  */
  {
    double lp, lm, hh = 3e-3;
    SF = (float) (sd + hh);
    lp = loss_shift (NULL);
    SF = (float) (sd - hh);
    lm = loss_shift (NULL);
    SF = (float) sd;
    tg_checks++;
    CHECK_NEAR (gsd, (lp - lm) / (2 * hh), TG_RTOL_F, TG_ATOL_F);
  }
  tg_fd_check_f ("x", XF, N + OFF, loss_shift, NULL, dxf, TG_RTOL_F,
                 TG_ATOL_F);
  for (int i = 0; i < OFF; i++)
    CHECK_NEAR (dxf[i], 0.0, 0, 0);

  M = 3;
  tg_fill (W, ROWS * M, 6, -1, 1);
  tg_fill (X, M, 7, -1, 1);
  tg_fill (C, ROWS, 8, -1, 1);
  rows (M, W, X, Y);
  double dw[MAXN * MAXN] = { 0 }, dxr[MAXN] = { 0 };
  memcpy (dy, C, sizeof dy);
  rows_grad (M, W, X, Y, dw, dxr, dy);
  tg_fd_check ("w", W, ROWS * M, loss_rows, NULL, dw, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", X, M, loss_rows, NULL, dxr, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
