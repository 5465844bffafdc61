/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward: scaled products and batches of
   products (plugin/forward.cc, te_gemm_forward).

   attn (float, non-causal multi-head attention; q, k, v [B][T][NH*hs]):
     s[((b*NH + h)*T + t)*T + u] = (sum_i q[(b*T + t)*C + h*hs + i]
                                         k[(b*T + u)*C + h*hs + i]) * scale
       with scale = 1 / sqrt (hs): one cblas_sgemm (q k^T) per (b, h),
       then the scale in a loop over s;
     a = softmax of each row of s (loops);
     out[(b*T + t)*C + h*hs + i] = sum_u a[((b*NH + h)*T + t)*T + u]
                                         v[(b*T + u)*C + h*hs + i]:
       one call per (b, h), its rows C apart with the heads between them.
     s and a are local arrays.
   batched (float): c[(b*n + i)*m + j] = sum_p a[(b*n + i)*k + p] w[p*m + j]
     for each b of a batch: products (the calls are counted, not how the
     batch is cut into them).
   lin (double): y[i*m + j] = b[j] + sum_p alpha x[i*k + p] w[p*m + j]
     with alpha a by-value parameter (the scale inside the sum): the
     product, then y = b + alpha y in a loop;
   avg (double): z[i*m + j] = sum_p x[i*k + p] w[p*m + j] / r with
     r = sqrt (k), then y2[i*m + j] = z / k, a division after the sum.

   Each forward against a copy of its loops compiled without the plugin,
   within what another summation order allows; the CBLAS calls counted
   (the link wraps cblas_sgemm and cblas_dgemm).  Odd sizes and sizes of
   one.  The gradients against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include "tg-test.h"
#include <float.h>

#include "blas-calls.h"

#define ATTN_BODY                                                             \
  int C = NH * hs;                                                            \
  float scale = 1.0f / sqrtf (hs);                                            \
  float s[B * NH * T * T], a[B * NH * T * T];                                 \
  for (int b = 0; b < B; b++)                                                 \
    for (int h = 0; h < NH; h++)                                              \
      for (int t = 0; t < T; t++)                                             \
	for (int u = 0; u < T; u++)                                           \
	  {                                                                   \
	    float acc = 0.0f;                                                 \
	    for (int i = 0; i < hs; i++)                                      \
	      acc += q[(b * T + t) * C + h * hs + i]                          \
		     * k[(b * T + u) * C + h * hs + i];                       \
	    s[((b * NH + h) * T + t) * T + u] = acc * scale;                  \
	  }                                                                   \
  for (int r = 0; r < B * NH * T; r++)                                        \
    {                                                                         \
      float mx = s[r * T];                                                    \
      for (int u = 1; u < T; u++)                                             \
	mx = fmaxf (mx, s[r * T + u]);                                        \
      float z = 0.0f;                                                         \
      for (int u = 0; u < T; u++)                                             \
	z += expf (s[r * T + u] - mx);                                        \
      for (int u = 0; u < T; u++)                                             \
	a[r * T + u] = expf (s[r * T + u] - mx) / z;                          \
    }                                                                         \
  for (int b = 0; b < B; b++)                                                 \
    for (int h = 0; h < NH; h++)                                              \
      for (int t = 0; t < T; t++)                                             \
	for (int i = 0; i < hs; i++)                                          \
	  {                                                                   \
	    float acc = 0.0f;                                                 \
	    for (int u = 0; u < T; u++)                                       \
	      acc += a[((b * NH + h) * T + t) * T + u]                        \
		     * v[(b * T + u) * C + h * hs + i];                       \
	    out[(b * T + t) * C + h * hs + i] = acc;                          \
	  }

__attribute__ ((differentiable)) void
attn (int B, int T, int NH, int hs, const float *q, const float *k,
      const float *v, float *out)
{
  ATTN_BODY
}

static void
attn_loops (int B, int T, int NH, int hs, const float *q, const float *k,
	    const float *v, float *out)
{
  ATTN_BODY
}

#define BATCHED_BODY                                                          \
  for (int b = 0; b < nb; b++)                                                \
    for (int i = 0; i < n; i++)                                               \
      for (int j = 0; j < m; j++)                                             \
	{                                                                     \
	  float acc = 0.0f;                                                   \
	  for (int p = 0; p < k; p++)                                         \
	    acc += a[(b * n + i) * k + p] * w[p * m + j];                     \
	  c[(b * n + i) * m + j] = acc;                                       \
	}

__attribute__ ((differentiable)) void
batched (int nb, int n, int k, int m, const float *a, const float *w,
	 float *c)
{
  BATCHED_BODY
}

static void
batched_loops (int nb, int n, int k, int m, const float *a, const float *w,
	       float *c)
{
  BATCHED_BODY
}

static void
run_batched (int nb, int n, int k, int m, unsigned seed)
{
  float *a = tg_alloc_f (nb * n * k), *w = tg_alloc_f (k * m);
  float *c = tg_alloc_f (nb * n * m), *ref = tg_alloc_f (nb * n * m);
  tg_fill_f (a, nb * n * k, seed, -1, 1);
  tg_fill_f (w, k * m, seed + 1, -1, 1);
  int before = sgemm_calls;
  batched (nb, n, k, m, a, w, c);
  batched_loops (nb, n, k, m, a, w, ref);
  CHECK (sgemm_calls > before && sgemm_calls <= before + nb * n);
  for (int r = 0; r < nb * n; r++)
    for (int j = 0; j < m; j++)
      {
	double s = 0;
	for (int p = 0; p < k; p++)
	  s += fabs ((double) a[r * k + p] * w[p * m + j]);
	CHECK_NEAR_AT (c[r * m + j], ref[r * m + j], 0,
		       4.0 * (k + 1) * FLT_EPSILON * s, r * m + j);
      }
  TG_GRADCHECK (batched, &nb, &n, &k, &m, a, w, c);
  free (a), free (w), free (c), free (ref);
}

__attribute__ ((differentiable)) void
lin (int n, int k, int m, double alpha, const double *x, const double *w,
     const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = b[j];
	for (int p = 0; p < k; p++)
	  s += alpha * x[i * k + p] * w[p * m + j];
	y[i * m + j] = s;
      }
}

static void
lin_loops (int n, int k, int m, double alpha, const double *x,
	   const double *w, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = b[j];
	for (int p = 0; p < k; p++)
	  s += alpha * x[i * k + p] * w[p * m + j];
	y[i * m + j] = s;
      }
}

#define AVG_BODY                                                              \
  double r = sqrt ((double) k);                                               \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < m; j++)                                               \
      {                                                                       \
	double s = 0.0;                                                       \
	for (int p = 0; p < k; p++)                                           \
	  s += x[i * k + p] * w[p * m + j] / r;                               \
	z[i * m + j] = s;                                                     \
      }                                                                       \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < m; j++)                                               \
      {                                                                       \
	double s = 0.0;                                                       \
	for (int p = 0; p < k; p++)                                           \
	  s += x[i * k + p] * w[p * m + j];                                   \
	y2[i * m + j] = s / k;                                                \
      }

__attribute__ ((differentiable)) void
avg (int n, int k, int m, const double *x, const double *w, double *z,
     double *y2)
{
  AVG_BODY
}

static void
avg_loops (int n, int k, int m, const double *x, const double *w, double *z,
	   double *y2)
{
  AVG_BODY
}

static void
run_attn (int B, int T, int NH, int hs, unsigned seed)
{
  int n = B * T * NH * hs;
  float *q = tg_alloc_f (n), *k = tg_alloc_f (n), *v = tg_alloc_f (n);
  float *out = tg_alloc_f (n), *ref = tg_alloc_f (n);
  tg_fill_f (q, n, seed, -1, 1);
  tg_fill_f (k, n, seed + 1, -1, 1);
  tg_fill_f (v, n, seed + 2, -1, 1);
  int before = sgemm_calls;
  attn (B, T, NH, hs, q, k, v, out);
  attn_loops (B, T, NH, hs, q, k, v, ref);
  CHECK (sgemm_calls == before + 2 * B * NH);
  /* |s| <= hs / sqrt (hs): the scores' error (4 (hs + 1) eps sqrt (hs))
     moves a probability by at most twice that relatively, and each out
     element is a convex sum of v in [-1, 1].  */
  double bound = 8.0 * (hs + 1) * FLT_EPSILON * sqrt (hs)
		 + 4.0 * (T + 1) * FLT_EPSILON;
  for (int e = 0; e < n; e++)
    CHECK_NEAR_AT (out[e], ref[e], 0, bound, e);
  TG_GRADCHECK (attn, &B, &T, &NH, &hs, q, k, v, out);
  free (q), free (k), free (v), free (out), free (ref);
}

static void
run_lin (int n, int k, int m, unsigned seed)
{
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m), *ref = tg_alloc (n * m);
  double alpha = -0.75;
  tg_fill (x, n * k, seed, -1, 1);
  tg_fill (w, k * m, seed + 1, -1, 1);
  tg_fill (b, m, seed + 2, -1, 1);
  int before = dgemm_calls;
  lin (n, k, m, alpha, x, w, b, y);
  lin_loops (n, k, m, alpha, x, w, b, ref);
  CHECK (dgemm_calls == before + 1);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = fabs (b[j]);
	for (int p = 0; p < k; p++)
	  s += fabs (alpha * x[i * k + p] * w[p * m + j]);
	CHECK_NEAR_AT (y[i * m + j], ref[i * m + j], 0,
		       4.0 * (k + 2) * DBL_EPSILON * s, i * m + j);
      }
  TG_GRADCHECK (lin, &n, &k, &m, &alpha, x, w, b, y);
  free (x), free (w), free (b), free (y), free (ref);
}

static void
run_avg (int n, int k, int m, unsigned seed)
{
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m);
  double *z = tg_alloc (n * m), *y2 = tg_alloc (n * m);
  double *zr = tg_alloc (n * m), *yr = tg_alloc (n * m);
  tg_fill (x, n * k, seed, -1, 1);
  tg_fill (w, k * m, seed + 1, -1, 1);
  int before = dgemm_calls;
  avg (n, k, m, x, w, z, y2);
  avg_loops (n, k, m, x, w, zr, yr);
  CHECK (dgemm_calls == before + 2);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = 0;
	for (int p = 0; p < k; p++)
	  s += fabs (x[i * k + p] * w[p * m + j]);
	double bound = 4.0 * (k + 2) * DBL_EPSILON * s;
	CHECK_NEAR_AT (z[i * m + j], zr[i * m + j], 0, bound, i * m + j);
	CHECK_NEAR_AT (y2[i * m + j], yr[i * m + j], 0, bound, i * m + j);
      }
  TG_GRADCHECK (avg, &n, &k, &m, x, w, z, y2);
  free (x), free (w), free (z), free (y2), free (zr), free (yr);
}

int
main (void)
{
  run_attn (2, 5, 3, 7, 1);
  run_attn (1, 1, 1, 1, 10);
  run_attn (3, 9, 1, 4, 20);
  run_batched (3, 5, 6, 7, 70);
  run_batched (1, 1, 1, 1, 80);
  run_lin (7, 33, 5, 30);
  run_lin (1, 1, 1, 40);
  run_avg (5, 9, 3, 50);
  run_avg (1, 1, 1, 60);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 77\\): s = q \\* k\\^T as cblas_sgemm \\(T, T, hs\\) in a loop over b, h\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage \[0-9\]+ \\(line 77\\): out = a \\* v as cblas_sgemm \\(T, hs, T\\) in a loop over b, h\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 146\\): y = x \\* w as cblas_dgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 187\\): z = x \\* w as cblas_dgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 187\\): y2 = x \\* w as cblas_dgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 102\\): c = a \\* w as cblas_sgemm \\(\[a-z\]+, m, k\\) in a loop over \[a-z\]+\n" } } */
