/* { dg-do run } */
/* Local VLAs under -fsanitize=undefined -fno-sanitize-recover
   (ubsan.exp): the C front end checks each VLA's bound, a branch to the
   noreturn __ubsan_handle_vla_bound_not_positive_abort that leaves every
   loop around it, and each index into the VLA (.UBSAN_BOUNDS).  The
   plugin reads past both; the forward keeps them.

   two_nests: t[i] = x[i]^2 + 1 into double t[n], then
       y[i] = t[i] / t[n-1-i]:
     d_t[k] = d_y[k] / t[n-1-k] - d_y[n-1-k] t[n-1-k] / t[k]^2,
     d_x[k] += 2 x[k] d_t[k].
   grid: a 2-D VLA h[T][H], h[t][j] = tanh (w[j] x[t]), read back
       reversed: y[t] = sum_j h[T-1-t][j] u[j]:
     d_u[j] += sum_t d_y[t] h[T-1-t][j],
     d_w[j] += sum_t d_y[T-1-t] u[j] (1 - h[t][j]^2) x[t], and d_x alike.
   rows: per row r a VLA e[m] = exp (x[r][j]) rewritten every row, its
       sum z, y[r][j] = e[j] / z (a softmax):
     d_x[r][j] += p_j (d_y[r][j] - sum_k p_k d_y[r][k]).
   Each is checked through its descriptor; then the forward, called with
   a VLA bound of 0, must stop on UBSan's report.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
two_nests (int n, const double *x, double *y)
{
  double t[n];
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i] + 1;
  for (int i = 0; i < n; i++)
    y[i] = t[i] / t[n - 1 - i];
}

__attribute__ ((differentiable))
void
grid (int T, int H, const double *x, const double *w, const double *u,
      double *y)
{
  double h[T][H];
  for (int t = 0; t < T; t++)
    for (int j = 0; j < H; j++)
      h[t][j] = tanh (w[j] * x[t]);
  for (int t = 0; t < T; t++)
    {
      double s = 0;
      for (int j = 0; j < H; j++)
	s += h[T - 1 - t][j] * u[j];
      y[t] = s;
    }
}

__attribute__ ((differentiable))
void
rows (int R, int m, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      double e[m];
      for (int j = 0; j < m; j++)
	e[j] = exp (x[r * m + j]);
      double z = 0;
      for (int j = 0; j < m; j++)
	z += e[j];
      for (int j = 0; j < m; j++)
	y[r * m + j] = e[j] / z;
    }
}

TG_DECLARE_GRADCHECK (two_nests);
TG_DECLARE_GRADCHECK (grid);
TG_DECLARE_GRADCHECK (rows);

/* A VLA of bound 0: the forward's check reports it and stops.  */
static void
zero_bound (void)
{
  double x[1] = { 0 }, y[1];
  volatile int n = 0;
  two_nests (n, x, y);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (two_nests, &n, x, y);

  int T = 4, H = 3;
  double *xt = tg_alloc (T), *w = tg_alloc (H), *u = tg_alloc (H);
  double *yt = tg_alloc (T);
  tg_fill (xt, T, 2, -1, 1);
  tg_fill (w, H, 3, -1, 1);
  tg_fill (u, H, 4, -1, 1);
  TG_GRADCHECK (grid, &T, &H, xt, w, u, yt);

  int R = 3, m = 5;
  double *xr = tg_alloc (R * m), *yr = tg_alloc (R * m);
  tg_fill (xr, R * m, 5, -2, 2);
  TG_GRADCHECK (rows, &R, &m, xr, yr);

  CHECK (tg_child_reports (zero_bound, "variable length array bound "
				      "evaluates to non-positive value 0", 0));
  free (x), free (y), free (xt), free (w), free (u), free (yt);
  free (xr), free (yr);
  return tg_exit ();
}
