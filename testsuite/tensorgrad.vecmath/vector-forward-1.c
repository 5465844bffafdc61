/* { dg-do run } */
/* { dg-options "-fopenmp -fplugin-arg-tensorgrad-vector-forward" } */
/* -fplugin-arg-tensorgrad-vector-forward changes the kernels' own
   results in their last bits only (sums reassociated, libmvec's math
   functions within 4 ulp) and their gradients not at all: each forward
   against the same mathematics in double, each gradient against central
   differences, at every -O level.  Kernels: a softmax over rows of 37
   (a rest after the vectors; its mask's -INFINITY columns give exact
   zeros, as without the option: no -ffinite-math-only), causal
   attention's scores as llm.c writes them under #pragma omp parallel
   for (a dot product, its running maximum, expf), and a double
   log-sum-exp loss.  */

#include <math.h>
#include <omp.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += expf (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (x[i * m + j] - mx) / s;
    }
}

__attribute__ ((differentiable))
void
scores (int T, int C, const float *q, const float *k, float *att)
{
  float scale = 1.0f / sqrtf (C);
#pragma omp parallel for
  for (int t = 0; t < T; t++)
    {
      float mx = -1e30f;
      for (int u = 0; u <= t; u++)
        {
          float s = 0.0f;
          for (int i = 0; i < C; i++)
            s += q[t * C + i] * k[u * C + i];
          s *= scale;
          att[t * T + u] = s;
          if (s > mx)
            mx = s;
        }
      for (int u = 0; u <= t; u++)
        att[t * T + u] = expf (att[t * T + u] - mx);
    }
}

__attribute__ ((differentiable))
double
logsumexp (int n, const double *x)
{
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = fmax (mx, x[i]);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += exp (x[i] - mx);
  return mx + log (s);
}

struct ctx { int a, b; float *x, *w; const float *g; double *xd; };

static double
softmax_loss (void *p)
{
  struct ctx *k = p;
  float y[k->a * k->b];
  softmax (k->a, k->b, k->x, y);
  return tg_dot_f (k->g, y, k->a * k->b);
}

static double
scores_loss (void *p)
{
  struct ctx *k = p;
  float att[k->a * k->a];
  for (int i = 0; i < k->a * k->a; i++)
    att[i] = 0.0f;
  scores (k->a, k->b, k->x, k->w, att);
  return tg_dot_f (k->g, att, k->a * k->a);
}

static double
lse_loss (void *p)
{
  struct ctx *k = p;
  return logsumexp (k->a, k->xd);
}

static void
check_softmax (void)
{
  int n = 5, m = 37, nm = n * m;
  float *x = tg_alloc_f (nm), *y = tg_alloc_f (nm), *g = tg_alloc_f (nm);
  float *dx = tg_alloc_f (nm);
  tg_fill_f (x, nm, 1, -3, 3);
  tg_fill_f (g, nm, 2, -1, 1);
  for (int j = 30; j < m; j++)
    x[4 * m + j] = -INFINITY;
  softmax (n, m, x, y);
  for (int i = 0; i < n; i++)
    {
      double mx = -INFINITY, s = 0;
      for (int j = 0; j < m; j++)
        mx = fmax (mx, x[i * m + j]);
      for (int j = 0; j < m; j++)
        s += exp (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        {
          double want = exp (x[i * m + j] - mx) / s;
          CHECK_NEAR_AT (y[i * m + j], want, 1e-5, 1e-9, i * m + j);
          if (isinf (x[i * m + j]))
            CHECK_AT (y[i * m + j] == 0.0f, i * m + j);
        }
    }
  float *gy = tg_dup_f (g, nm);
  softmax_grad (n, m, x, y, dx, gy);
  for (int j = 30; j < m; j++)
    x[4 * m + j] = -30.0f;
  /* The finite differences away from the mask: its columns' gradient
     is 0, each y there being 0.  */
  for (int j = 30; j < m; j++)
    CHECK_AT (dx[4 * m + j] == 0.0f, 4 * m + j);
  struct ctx k = { n - 1, m, x, NULL, g, NULL };
  tg_fd_check_f ("x", x, (n - 1) * m, softmax_loss, &k, dx, TG_RTOL_F,
                 TG_ATOL_F);
  free (x), free (y), free (g), free (dx), free (gy);
}

static void
check_scores (void)
{
  int T = 7, C = 19;
  float *q = tg_alloc_f (T * C), *kk = tg_alloc_f (T * C);
  float *att = tg_alloc_f (T * T), *g = tg_alloc_f (T * T);
  float *dq = tg_alloc_f (T * C), *dk = tg_alloc_f (T * C);
  tg_fill_f (q, T * C, 3, -1, 1);
  tg_fill_f (kk, T * C, 4, -1, 1);
  tg_fill_f (g, T * T, 5, -1, 1);
  scores (T, C, q, kk, att);
  for (int t = 0; t < T; t++)
    {
      double s[T], mx = -1e30;
      for (int u = 0; u <= t; u++)
        {
          s[u] = 0;
          for (int i = 0; i < C; i++)
            s[u] += (double) q[t * C + i] * kk[u * C + i];
          s[u] /= sqrt (C);
          mx = fmax (mx, s[u]);
        }
      for (int u = 0; u <= t; u++)
        CHECK_NEAR_AT (att[t * T + u], exp (s[u] - mx), 1e-5, 1e-7,
                       t * T + u);
    }
  float *gy = tg_dup_f (g, T * T);
  scores_grad (T, C, q, kk, att, dq, dk, gy);
  struct ctx k = { T, C, q, kk, g, NULL };
  tg_fd_check_f ("q", q, T * C, scores_loss, &k, dq, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("k", kk, T * C, scores_loss, &k, dk, TG_RTOL_F,
                 TG_ATOL_F);
  free (q), free (kk), free (att), free (g), free (dq), free (dk);
  free (gy);
}

static void
check_lse (void)
{
  int n = 23;
  double *x = tg_alloc (n), *dx = tg_alloc (n);
  tg_fill (x, n, 6, -4, 4);
  double mx = -INFINITY, s = 0;
  for (int i = 0; i < n; i++)
    mx = fmax (mx, x[i]);
  for (int i = 0; i < n; i++)
    s += exp (x[i] - mx);
  CHECK_NEAR (logsumexp (n, x), mx + log (s), 1e-14, 1e-15);
  logsumexp_grad (n, x, dx, 1.0);
  struct ctx k = { n, 0, NULL, NULL, NULL, x };
  tg_fd_check ("x", x, n, lse_loss, &k, dx, TG_RTOL, TG_ATOL);
  free (x), free (dx);
}

int
main (void)
{
  omp_set_num_threads (2);
  check_softmax ();
  check_scores ();
  check_lse ();
  return tg_exit ();
}
