/* { dg-do run } */
/* Products over a triangle with -fplugin-arg-tensorgrad-blas (gemm.c,
   te_gemm_tri): causal attention as llm.c's attention_forward writes
   it (float; scores for u <= t, their softmax with the row maximum
   subtracted, the rest of each row zeroed, the weighted values), and a
   causal linear map in double, y[i][t] = sum over u <= t of
   x[i][u] w[t][u], with its weight stored both ways (w[t][u], and
   wt[u][t]).  Their gradients' products:
     attention, per sample and head: d_att's part d_out v^T on the lower
       triangle (gemm into a scratch, the triangle added), d_v += att^T
       d_out, d_q += d_s k, d_k += d_s^T q (trmm of the triangular factor
       on a copy of the other);
     causal_lin: d_x = d_y w (w's lower triangle, from the right),
       d_w's lower triangle = d_y^T x;
     causal_lin_t: the same with wt's upper triangle.
   With no-opt the scores the gradient computes again are a product
   over the triangle too.  Odd sizes, every component against central
   differences, the outputs' shadows NULL against zero ones; the calls
   found by symbol (tg-blas-calls).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
attention (int B, int T, int C, int NH, const float *qkv, float *preatt,
           float *att, float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *q = qkv + (b * T + t) * 3 * C + h * hs;
          float *srow = preatt + ((b * NH + h) * T + t) * T;
          float *prow = att + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            {
              const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
              float s = 0.0f;
              for (int i = 0; i < hs; i++)
                s += q[i] * k[i];
              s *= scale;
              srow[u] = s;
              if (s > mx)
                mx = s;
            }
          float z = 0.0f;
          for (int u = 0; u <= t; u++)
            {
              float e = expf (srow[u] - mx);
              z += e;
              prow[u] = e;
            }
          for (int u = 0; u < T; u++)
            prow[u] = u <= t ? prow[u] / z : 0.0f;
          float *o = out + (b * T + t) * C + h * hs;
          for (int i = 0; i < hs; i++)
            o[i] = 0.0f;
          for (int u = 0; u <= t; u++)
            {
              const float *v = qkv + (b * T + u) * 3 * C + 2 * C + h * hs;
              for (int i = 0; i < hs; i++)
                o[i] += prow[u] * v[i];
            }
        }
}

__attribute__ ((differentiable))
void
causal_lin (int n, int T, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int t = 0; t < T; t++)
      {
        double acc = 0;
        for (int u = 0; u <= t; u++)
          acc += x[i * T + u] * w[t * T + u];
        y[i * T + t] = acc;
      }
}

__attribute__ ((differentiable))
void
causal_lin_t (int n, int T, const double *x, const double *wt, double *y)
{
  for (int i = 0; i < n; i++)
    for (int t = 0; t < T; t++)
      {
        double acc = 0;
        for (int u = 0; u <= t; u++)
          acc += x[i * T + u] * wt[u * T + t];
        y[i * T + t] = acc;
      }
}

enum { B = 2, T = 7, C = 12, NH = 3 };
#define NQ (B * T * 3 * C)
#define NA (B * NH * T * T)
#define NO (B * T * C)

static float g_pre[NA], g_att[NA], g_out[NO];

static double
att_loss (void *p)
{
  static float pre[NA], att[NA], out[NO];
  attention (B, T, C, NH, p, pre, att, out);
  return tg_dot_f (g_pre, pre, NA) + tg_dot_f (g_att, att, NA)
         + tg_dot_f (g_out, out, NO);
}

static void
check_attention (void)
{
  float *qkv = tg_alloc_f (NQ), *pre = tg_alloc_f (NA), *att = tg_alloc_f (NA);
  float *out = tg_alloc_f (NO), *dq = tg_alloc_f (NQ);
  tg_fill_f (qkv, NQ, 1, -1, 1);
  tg_fill_f (g_pre, NA, 2, -1, 1);
  tg_fill_f (g_att, NA, 3, -1, 1);
  tg_fill_f (g_out, NO, 4, -1, 1);
  attention (B, T, C, NH, qkv, pre, att, out);
  float *dpre = tg_dup_f (g_pre, NA), *datt = tg_dup_f (g_att, NA);
  float *dout = tg_dup_f (g_out, NO);
  attention_grad (B, T, C, NH, qkv, pre, att, out, dq, dpre, datt, dout);
  tg_fd_check_f ("qkv", qkv, NQ, att_loss, qkv, dq, TG_RTOL_F, TG_ATOL_F);

  /* The outputs' shadows NULL: as zero.  */
  float *z_pre = tg_alloc_f (NA), *z_att = tg_alloc_f (NA);
  float *dq1 = tg_alloc_f (NQ), *dq2 = tg_alloc_f (NQ);
  attention_grad (B, T, C, NH, qkv, pre, att, out, dq1, z_pre, z_att, dout);
  attention_grad (B, T, C, NH, qkv, pre, att, out, dq2, NULL, NULL, dout);
  for (int i = 0; i < NQ; i++)
    CHECK_NEAR_AT (dq2[i], dq1[i], 1e-6, 1e-7, i);

  free (qkv), free (pre), free (att), free (out), free (dq);
  free (dpre), free (datt), free (dout), free (z_pre), free (z_att);
  free (dq1), free (dq2);
}

typedef void (*lin_fn) (int, int, const double *, const double *, double *);
typedef void (*lin_grad_fn) (int, int, const double *, const double *,
                             double *, double *, double *, double *);

struct lctx { lin_fn f; int n, T; double *x, *w; const double *g; };

static double
lin_loss (void *p)
{
  struct lctx *k = p;
  double y[k->n * k->T];
  k->f (k->n, k->T, k->x, k->w, y);
  return tg_dot (k->g, y, k->n * k->T);
}

static void
check_lin (lin_fn f, lin_grad_fn gf)
{
  int n = 5, Tl = 9;
  double *x = tg_alloc (n * Tl), *w = tg_alloc (Tl * Tl);
  double *y = tg_alloc (n * Tl), *g = tg_alloc (n * Tl);
  double *dx = tg_alloc (n * Tl), *dw = tg_alloc (Tl * Tl);
  tg_fill (x, n * Tl, 5, -1, 1);
  tg_fill (w, Tl * Tl, 6, -1, 1);
  tg_fill (g, n * Tl, 7, -1, 1);
  f (n, Tl, x, w, y);
  double *gy = tg_dup (g, n * Tl);
  gf (n, Tl, x, w, y, dx, dw, gy);
  struct lctx k = { f, n, Tl, x, w, g };
  tg_fd_check ("x", x, n * Tl, lin_loss, &k, dx, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, Tl * Tl, lin_loss, &k, dw, TG_RTOL, TG_ATOL);
  free (x), free (w), free (y), free (g), free (dx), free (dw), free (gy);
}

int
main (void)
{
  check_attention ();
  check_lin (causal_lin, causal_lin_grad);
  check_lin (causal_lin_t, causal_lin_t_grad);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: e_att = d1 \\* qkv\\^T as cblas_sgemm \\(T, T, C / NH\\) in a loop over b, h, the lower triangle added\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_qkv = att\\^T \\* d1 as cblas_strmm \\(T, C / NH\\) in a loop over b, h, att's lower triangle\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_qkv = (d\[0-9\]+) \\* qkv as cblas_strmm \\(T, C / NH\\) in a loop over b, h, \\1's lower triangle\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_qkv = (d\[0-9\]+)\\^T \\* qkv as cblas_strmm \\(T, C / NH\\) in a loop over b, h, \\1's lower triangle\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = d\[a-z0-9_\]+ \\* w as cblas_dtrmm \\(n, T\\), w's lower triangle\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w = d\[a-z0-9_\]+\\^T \\* x as cblas_dgemm \\(T, T, n\\), the lower triangle added\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = d\[a-z0-9_\]+ \\* wt\\^T as cblas_dtrmm \\(n, T\\), wt's upper triangle\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_wt = x\\^T \\* d\[a-z0-9_\]+ as cblas_dgemm \\(T, T, n\\), the upper triangle added\n" } } */
/* { dg-final { tg-blas-calls cblas_strmm } } */
/* { dg-final { tg-blas-calls cblas_dtrmm } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
