/* { dg-do run } */
/* -fplugin-arg-tensorgrad-tiled-forward: batches of products as the
   tiled product, one call per iteration of the batch loops
   (plugin/forward.cc, te_gemm_forward, te_rows_apart).

   attn (float, non-causal multi-head attention; q, k, v [B][T][NH*hs]):
     s[((b*NH + h)*T + t)*T + u] = (sum_i q[(b*T + t)*C + h*hs + i]
                                         k[(b*T + u)*C + h*hs + i]) * scale
       with scale = 1 / sqrt (hs): a product q k^T per (b, h), then the
       scale in a loop over s;
     a = softmax of each row of s (loops);
     out[(b*T + t)*C + h*hs + i] = sum_u a[((b*NH + h)*T + t)*T + u]
                                         v[(b*T + u)*C + h*hs + i]:
       a product per (b, h), its rows C apart with the heads between
       them.  s and a are variable-length locals.
   batched (double): c[(b*n + i)*m + j] = sum_p a[(b*n + i)*k + p] w[p*m + j]
     for each b of a batch.

   Sizes: attn 2 x 5 x 3 heads x 7 and 1 x 1 x 1 x 1 (loops), 1 x 32 x 2
   heads x 32 (each head's two products 32 x 32 x 32 = 32768: tiled);
   batched 3 x (5 x 6 x 7) (loops), 8 x (8 x 32 x 128) (tiled).  Each
   forward against a copy of its loops compiled without the plugin,
   within what another summation order allows; the mallocs of the tiled
   product's buffers counted (tiled-forward.h).  The gradients against
   central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc" } */

#include "tg-test.h"
#include <float.h>

#include "tiled-forward.h"

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
	  double acc = 0.0f;                                                   \
	  for (int p = 0; p < k; p++)                                         \
	    acc += a[(b * n + i) * k + p] * w[p * m + j];                     \
	  c[(b * n + i) * m + j] = acc;                                       \
	}

__attribute__ ((differentiable)) void
batched (int nb, int n, int k, int m, const double *a, const double *w,
	 double *c)
{
  BATCHED_BODY
}

static void
batched_loops (int nb, int n, int k, int m, const double *a, const double *w,
	       double *c)
{
  BATCHED_BODY
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
  long before = malloc_calls;
  attn (B, T, NH, hs, q, k, v, out);
  long made = malloc_calls - before;
  attn_loops (B, T, NH, hs, q, k, v, ref);
  CHECK_AT (tiled_size (T, T, hs) || tiled_size (T, hs, T) ? made > 0
							    : made == 0, T);
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
run_batched (int nb, int n, int k, int m, unsigned seed)
{
  double *a = tg_alloc (nb * n * k), *w = tg_alloc (k * m);
  double *c = tg_alloc (nb * n * m), *ref = tg_alloc (nb * n * m);
  tg_fill (a, nb * n * k, seed, -1, 1);
  tg_fill (w, k * m, seed + 1, -1, 1);
  long before = malloc_calls;
  batched (nb, n, k, m, a, w, c);
  long made = malloc_calls - before;
  batched_loops (nb, n, k, m, a, w, ref);
  /* The product's rows are those of one b or of one i (the other loop
     the batch): the sizes run tiled either way, or neither.  */
  CHECK_AT (tiled_size (n, m, k) || tiled_size (nb, m, k) ? made > 0
							 : made == 0, n);
  for (int r = 0; r < nb * n; r++)
    for (int j = 0; j < m; j++)
      {
	double s = 0;
	for (int p = 0; p < k; p++)
	  s += fabs (a[r * k + p] * w[p * m + j]);
	CHECK_NEAR_AT (c[r * m + j], ref[r * m + j], 0,
		       4.0 * (k + 1) * DBL_EPSILON * s, r * m + j);
      }
  TG_GRADCHECK (batched, &nb, &n, &k, &m, a, w, c);
  free (a), free (w), free (c), free (ref);
}

int
main (void)
{
  run_attn (2, 5, 3, 7, 1);
  run_attn (1, 1, 1, 1, 10);
  run_attn (1, 32, 2, 32, 20);
  run_batched (3, 5, 6, 7, 30);
  run_batched (8, 8, 32, 128, 40);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 75\\): s = q \\* k\\^T as tiled \\(T, T, hs\\) in a loop over b, h\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage \[0-9\]+ \\(line 75\\): out = a \\* v as tiled \\(T, hs, T\\) in a loop over b, h\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 100\\): c = a \\* w as tiled \\(\[a-z\]+, m, k\\) in a loop over \[a-z\]+\n" } } */
