/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A later loop, or statements, rewriting part of what an earlier loop
   wrote: the rewritten elements take the later value, the others keep
   the earlier one, and the earlier value of a rewritten element gets no
   adjoint.  Each rewrite stores at one value of the earlier loop's last
   counter, inside the loops both share: the boundary of a smoothing
   step set to 0 or to u by statements after the loop (d_u[0] gets d_y[0]
   from the boundary alone); a pair of elements copied with memcpy and
   the first overwritten in the same iteration (float and double); the
   first entry of each row replaced after the row loop, also by an
   expression of the row; the diagonal of a causal row rescaled after
   the row was written; the boundary at 0 and n - 1 needs n >= 1, which
   the gradient requires.  A rewrite under a guard over the same elements
   keeps the earlier value where the guard fails, also when a sum read
   the row before the rewrite.  Every component against central
   differences, also with the input's or the output's shadow NULL.
   What stays refused: err-partial-rewrite-1.c, -2.c.  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

/* README's How to rewrite had it refused ("a part overwritten"): the
   boundary set to 0 by statements of their own after the loop.  */
__attribute__ ((differentiable))
void
smooth (int n, const double *u, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.5 * u[i]
           + 0.25 * (u[i > 0 ? i - 1 : 0] + u[i < n - 1 ? i + 1 : n - 1]);
  y[0] = 0;
  y[n - 1] = 0;
}

__attribute__ ((differentiable))
void
smooth_edges (int n, const double *u, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.5 * u[i]
           + 0.25 * (u[i > 0 ? i - 1 : 0] + u[i < n - 1 ? i + 1 : n - 1]);
  y[0] = u[0];
  y[n - 1] = 0;
}

__attribute__ ((differentiable))
void
copy_pair_d (int n, const double *x, double *y)
{
  for (int r = 0; r < n; r++)
    {
      memcpy (y + 2 * r, x + 2 * r, 2 * sizeof *y);
      y[2 * r] = x[2 * r] * x[2 * r + 1];
    }
}

__attribute__ ((differentiable))
void
copy_pair_f (int n, const float *x, float *y)
{
  for (int r = 0; r < n; r++)
    {
      memcpy (y + 2 * r, x + 2 * r, 2 * sizeof *y);
      y[2 * r + 1] = sinf (x[2 * r]) + x[2 * r + 1];
    }
}

__attribute__ ((differentiable))
void
row_head (int B, int V, const float *x, float *y)
{
  for (int b = 0; b < B; b++)
    {
      const float *xr = x + b * V;
      float *yr = y + b * V;
      for (int j = 0; j < V; j++)
        yr[j] = xr[j] * xr[j];
      yr[0] = tanhf (xr[0] + xr[V - 1]);
    }
}

__attribute__ ((differentiable))
void
causal_diag (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      for (int u = 0; u <= t; u++)
        p[t * T + u] = exp (s[t * T + u]);
      p[t * T + t] = 2 * s[t * T + t];
    }
}

/* Runs of elements rewritten by a loop of their own: the first m of n
   (the gradient requires n - m >= 0), also from the value of the
   element itself; two of each row's four after memcpy of the row; a
   score matrix computed whole and its upper triangle masked from
   t + 1.  */
__attribute__ ((differentiable))
void
head_range (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 3;
  for (int i = 0; i < m; i++)
    y[i] = sin (x[i]);
}

__attribute__ ((differentiable))
void
head_twice (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = exp (x[i]);
  for (int i = 0; i < m; i++)
    y[i] = 2.0 * y[i] * x[i];
}

__attribute__ ((differentiable))
void
row_range (int n, const float *x, float *y)
{
  for (int r = 0; r < n; r++)
    {
      memcpy (y + 4 * r, x + 4 * r, 4 * sizeof *y);
      for (int k = 0; k < 2; k++)
        y[4 * r + k] = x[4 * r + k] * x[4 * r + 3];
    }
}

__attribute__ ((differentiable))
void
masked_scores (int T, const float *s, float *p)
{
  for (int t = 0; t < T; t++)
    {
      for (int u = 0; u < T; u++)
        p[t * T + u] = tanhf (s[t * T + u]);
      for (int u = t + 1; u < T; u++)
        p[t * T + u] = 0.0f;
    }
}

__attribute__ ((differentiable))
void
clip_after_sum (int B, int V, const double *x, double *p, double *zs)
{
  for (int b = 0; b < B; b++)
    {
      double z = 0;
      for (int j = 0; j < V; j++)
        {
          p[b * V + j] = x[b * V + j] * x[b * V + j];
          z += p[b * V + j];
        }
      for (int j = 0; j < V; j++)
        if (x[b * V + j] > 0)
          p[b * V + j] = 0;
      zs[b] = z;
    }
}

int
main (void)
{
  int n = 7;
  double *u = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (u, n, 1, -1, 1);
  smooth_edges (n, u, y);
  CHECK (y[0] == u[0] && y[n - 1] == 0);
  CHECK_NEAR (y[3], 0.5 * u[3] + 0.25 * (u[2] + u[4]), 1e-15, 1e-15);
  TG_GRADCHECK (smooth_edges, &n, u, y);
  smooth (n, u, y);
  CHECK (y[0] == 0 && y[n - 1] == 0);
  CHECK_NEAR (y[1], 0.5 * u[1] + 0.25 * (u[0] + u[2]), 1e-15, 1e-15);
  TG_GRADCHECK (smooth, &n, u, y);
  TG_GRADCHECK_NULL (smooth_edges, "y", &n, u, y);

  int m = 5;
  double *x = tg_alloc (2 * m), *yd = tg_alloc (2 * m);
  tg_fill (x, 2 * m, 2, -2, 2);
  copy_pair_d (m, x, yd);
  CHECK (yd[2] == x[2] * x[3] && yd[3] == x[3]);
  TG_GRADCHECK (copy_pair_d, &m, x, yd);
  float *xf = tg_alloc_f (2 * m), *yf = tg_alloc_f (2 * m);
  tg_fill_f (xf, 2 * m, 3, -2, 2);
  copy_pair_f (m, xf, yf);
  CHECK (yf[4] == xf[4]);
  TG_GRADCHECK (copy_pair_f, &m, xf, yf);

  int B = 3, V = 4;
  float *xr = tg_alloc_f (B * V), *yr = tg_alloc_f (B * V);
  tg_fill_f (xr, B * V, 4, -1, 1);
  row_head (B, V, xr, yr);
  CHECK (yr[V + 1] == xr[V + 1] * xr[V + 1]);
  TG_GRADCHECK (row_head, &B, &V, xr, yr);
  TG_GRADCHECK_NULL (row_head, "x", &B, &V, xr, yr);

  int T = 5;
  double *s = tg_alloc (T * T), *p = tg_alloc (T * T);
  tg_fill (s, T * T, 5, -1, 1);
  causal_diag (T, s, p);
  CHECK (p[2 * T + 2] == 2 * s[2 * T + 2]);
  TG_GRADCHECK (causal_diag, &T, s, p);

  int n2 = 7, m2 = 4;
  double *xh = tg_alloc (n2), *yh = tg_alloc (n2);
  tg_fill (xh, n2, 7, -1, 1);
  head_range (n2, m2, xh, yh);
  CHECK (yh[m2 - 1] == sin (xh[m2 - 1]) && yh[m2] == xh[m2] * 3);
  TG_GRADCHECK (head_range, &n2, &m2, xh, yh);
  head_twice (n2, m2, xh, yh);
  CHECK_NEAR (yh[1], 2.0 * exp (xh[1]) * xh[1], 1e-15, 1e-15);
  CHECK (yh[m2] == exp (xh[m2]));
  TG_GRADCHECK (head_twice, &n2, &m2, xh, yh);
  TG_GRADCHECK_NULL (head_twice, "x", &n2, &m2, xh, yh);

  float *x4 = tg_alloc_f (4 * m), *y4 = tg_alloc_f (4 * m);
  tg_fill_f (x4, 4 * m, 8, -1, 1);
  row_range (m, x4, y4);
  CHECK (y4[6] == x4[6] && y4[5] == x4[5] * x4[7]);
  TG_GRADCHECK (row_range, &m, x4, y4);

  float *sm = tg_alloc_f (T * T), *pm = tg_alloc_f (T * T);
  tg_fill_f (sm, T * T, 9, -1, 1);
  masked_scores (T, sm, pm);
  CHECK (pm[1] == 0.0f && pm[T] == tanhf (sm[T]));
  TG_GRADCHECK (masked_scores, &T, sm, pm);

  double *xc = tg_alloc (B * V), *pc = tg_alloc (B * V), *zs = tg_alloc (B);
  tg_fill_away (xc, B * V, 6, -2, 2, 0, 0.1);
  clip_after_sum (B, V, xc, pc, zs);
  for (int i = 0; i < B * V; i++)
    CHECK (pc[i] == (xc[i] > 0 ? 0 : xc[i] * xc[i]));
  TG_GRADCHECK (clip_after_sum, &B, &V, xc, pc, zs);
  TG_GRADCHECK_NULL (clip_after_sum, "p", &B, &V, xc, pc, zs);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "version: y, rewritten in part, keeps the values of the earlier loop elsewhere" } } */
/* { dg-final { scan-tensorgrad-dump "require: n \\+ -1 >= 0: what this statement rewrites of 'y' lies among the elements an earlier loop wrote" } } */
/* { dg-final { scan-tensorgrad-dump "version: p keeps the value of p.v1 where the guard of its rewrite fails" } } */
/* { dg-final { scan-tensorgrad-dump "require: n - m >= 0: what this statement rewrites of 'y' lies among the elements an earlier loop wrote" } } */
