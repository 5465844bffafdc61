/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward: a nest of the kernel itself that
   is a matrix product runs as one CBLAS call (plugin/forward.cc).

   linear:  y[i*(m + 2) + j] = b[j] + sum_p x[i*ldx + p] w[j*k + p]
            (float; x rows ldx apart, w stored output by output: the call
            is y = x * w^T, y's rows m + 2 apart).
   gram:    c[i*n + j] = sum_p a[p*m + i] g[p*n + j] (double; a stored
            transposed: c = a^T * g), then a second nest reads c:
            r[i] = 2 sum_j c[i*n + j] (the call's stores come before it).
   scaled:  y[i*m + j] = 0.5 * sum_p x[i*k + p] w[p*m + j]: a scale around
            the sum: the product, then the scale in a loop (more in
            blas-forward-4.c).
   both:    one nest storing y and z: stays loops.
   guarded: the nest of scaled's product (without the scale) behind
            if (k > 2): the call under the test, so with k = 2 y keeps
            its values and the BLAS is not called.

   Each forward against a copy of its loops compiled without the plugin,
   within what another summation order allows (4 k eps sum_p |terms|);
   the CBLAS calls counted (the link wraps cblas_sgemm and cblas_dgemm):
   one per call of linear, gram and scaled, none for both.  Sizes 1,
   7, 33, and k = 0 (the BLAS is not called: y = b).  The gradients (the
   same as without the option) against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include "tg-test.h"
#include <float.h>

#include "blas-calls.h"

__attribute__ ((differentiable)) void
linear (int n, int k, int m, int ldx, const float *x, const float *w,
	const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * ldx + p] * w[j * k + p];
	y[i * (m + 2) + j] = acc;
      }
}

static void
linear_loops (int n, int k, int m, int ldx, const float *x, const float *w,
	      const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * ldx + p] * w[j * k + p];
	y[i * (m + 2) + j] = acc;
      }
}

__attribute__ ((differentiable)) void
gram (int m, int n, int k, const double *a, const double *g, double *c,
      double *r)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double s = 0.0;
	for (int p = 0; p < k; p++)
	  s += a[p * m + i] * g[p * n + j];
	c[i * n + j] = s;
      }
  for (int i = 0; i < m; i++)
    {
      double t = 0.0;
      for (int j = 0; j < n; j++)
	t += c[i * n + j];
      r[i] = 2.0 * t;
    }
}

static void
gram_loops (int m, int n, int k, const double *a, const double *g,
	    double *c, double *r)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double s = 0.0;
	for (int p = 0; p < k; p++)
	  s += a[p * m + i] * g[p * n + j];
	c[i * n + j] = s;
      }
  for (int i = 0; i < m; i++)
    {
      double t = 0.0;
      for (int j = 0; j < n; j++)
	t += c[i * n + j];
      r[i] = 2.0 * t;
    }
}

__attribute__ ((differentiable)) void
scaled (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = 0.5f * acc;
      }
}

#define GUARDED_BODY                                                          \
  if (k > 2)                                                                  \
    for (int i = 0; i < n; i++)                                               \
      for (int j = 0; j < m; j++)                                             \
	{                                                                     \
	  float acc = 0.0f;                                                   \
	  for (int p = 0; p < k; p++)                                         \
	    acc += x[i * k + p] * w[p * m + j];                               \
	  y[i * m + j] = acc;                                                 \
	}

__attribute__ ((differentiable)) void
guarded (int n, int k, int m, const float *x, const float *w, float *y)
{
  GUARDED_BODY
}

static void
guarded_loops (int n, int k, int m, const float *x, const float *w,
	       float *y)
{
  GUARDED_BODY
}

/* guarded with K = 2 (no call: y as it was) and K = 6 (one call).  */
static void
run_guarded (int n, int m, unsigned seed)
{
  float *x = tg_alloc_f (n * 6), *w = tg_alloc_f (6 * m);
  float *y = tg_alloc_f (n * m), *ref = tg_alloc_f (n * m);
  tg_fill_f (x, n * 6, seed, -1, 1);
  tg_fill_f (w, 6 * m, seed + 1, -1, 1);
  for (int k = 2; k <= 6; k += 4)
    {
      tg_fill_f (y, n * m, seed + 2, 3, 4);
      memcpy (ref, y, n * m * sizeof *y);
      int before = sgemm_calls;
      guarded (n, k, m, x, w, y);
      guarded_loops (n, k, m, x, w, ref);
      CHECK (sgemm_calls == before + (k > 2));
      for (int i = 0; i < n; i++)
	for (int j = 0; j < m; j++)
	  {
	    double bound = 0;
	    for (int p = 0; p < k; p++)
	      bound += fabs ((double) x[i * k + p] * w[p * m + j]);
	    CHECK_NEAR_AT (y[i * m + j], ref[i * m + j], 0,
			   4.0 * (k + 1) * FLT_EPSILON * bound, i * m + j);
	  }
      TG_GRADCHECK (guarded, &n, &k, &m, x, w, y);
    }
  free (x), free (w), free (y), free (ref);
}

__attribute__ ((differentiable)) void
both (int n, int k, int m, const float *x, const float *w, float *y,
      float *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
	z[i * m + j] = acc * acc;
      }
}

static void
run_linear (int n, int k, int m, unsigned seed)
{
  int ldx = k + 3, ldy = m + 2;
  float *x = tg_alloc_f (n * ldx + 1), *w = tg_alloc_f (m * k + 1);
  float *b = tg_alloc_f (m), *y = tg_alloc_f (n * ldy + 1);
  float *ref = tg_alloc_f (n * ldy + 1);
  tg_fill_f (x, n * ldx + 1, seed, -1, 1);
  tg_fill_f (w, m * k + 1, seed + 1, -1, 1);
  tg_fill_f (b, m, seed + 2, -1, 1);
  /* The gaps between y's rows keep what they held.  */
  tg_fill_f (y, n * ldy + 1, seed + 3, 5, 6);
  memcpy (ref, y, (n * ldy + 1) * sizeof *y);
  int before = sgemm_calls;
  linear (n, k, m, ldx, x + 1, w, b, y);
  linear_loops (n, k, m, ldx, x + 1, w, b, ref);
  CHECK (sgemm_calls == before + (n > 0 && m > 0 && k > 0));
  for (int e = 0; e < n * ldy + 1; e++)
    {
      int i = e / ldy, j = e % ldy;
      double bound = 0;
      if (i < n && j < m)
	{
	  for (int p = 0; p < k; p++)
	    bound += fabs ((double) x[1 + i * ldx + p] * w[j * k + p]);
	  bound = 4.0 * (k + 1) * FLT_EPSILON * (bound + fabs (b[j]));
	}
      CHECK_NEAR_AT (y[e], ref[e], 0, bound, e);
    }
  TG_GRADCHECK (linear, &n, &k, &m, &ldx, x + 1, w, b, y);
  TG_GRADCHECK_NULL (linear, "x", &n, &k, &m, &ldx, x + 1, w, b, y);
  free (x), free (w), free (b), free (y), free (ref);
}

static void
run_gram (int m, int n, int k, unsigned seed)
{
  double *a = tg_alloc (k * m), *g = tg_alloc (k * n);
  double *c = tg_alloc (m * n), *r = tg_alloc (m);
  double *cref = tg_alloc (m * n), *rref = tg_alloc (m);
  tg_fill (a, k * m, seed, -1, 1);
  tg_fill (g, k * n, seed + 1, -1, 1);
  int before = dgemm_calls;
  gram (m, n, k, a, g, c, r);
  gram_loops (m, n, k, a, g, cref, rref);
  CHECK (dgemm_calls == before + 1);
  double rbound = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double bound = 0;
	for (int p = 0; p < k; p++)
	  bound += fabs (a[p * m + i] * g[p * n + j]);
	bound *= 4.0 * k * DBL_EPSILON;
	CHECK_NEAR_AT (c[i * n + j], cref[i * n + j], 0, bound, i * n + j);
	rbound += 2 * bound;
      }
  for (int i = 0; i < m; i++)
    CHECK_NEAR_AT (r[i], rref[i], 0, rbound + 4.0 * n * DBL_EPSILON
		   * fabs (rref[i]), i);
  TG_GRADCHECK (gram, &m, &n, &k, a, g, c, r);
  TG_GRADCHECK_NULL (gram, "a", &m, &n, &k, a, g, c, r);
  free (a), free (g), free (c), free (r), free (cref), free (rref);
}

static void
run_stays (int n, int k, int m, unsigned seed)
{
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m);
  float *y = tg_alloc_f (n * m), *z = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, seed, -1, 1);
  tg_fill_f (w, k * m, seed + 1, -1, 1);
  int before = sgemm_calls;
  scaled (n, k, m, x, w, y);
  CHECK (sgemm_calls == before + 1);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double ref = 0, bound = 0;
	for (int p = 0; p < k; p++)
	  {
	    ref += (double) x[i * k + p] * w[p * m + j];
	    bound += fabs ((double) x[i * k + p] * w[p * m + j]);
	  }
	CHECK_NEAR_AT (y[i * m + j], 0.5 * ref, 0,
		       2.0 * (k + 2) * FLT_EPSILON * bound, i * m + j);
      }
  before = sgemm_calls;
  both (n, k, m, x, w, y, z);
  CHECK (sgemm_calls == before);
  TG_GRADCHECK (scaled, &n, &k, &m, x, w, y);
  TG_GRADCHECK (both, &n, &k, &m, x, w, y, z);
  free (x), free (w), free (y), free (z);
}

int
main (void)
{
  run_linear (7, 33, 1, 1);
  run_linear (1, 7, 33, 10);
  run_linear (33, 1, 7, 20);
  run_linear (5, 0, 3, 30);
  run_gram (7, 5, 33, 40);
  run_gram (1, 1, 1, 50);
  run_stays (5, 6, 7, 60);
  run_guarded (5, 7, 70);
  run_guarded (1, 1, 80);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 42\\): y = x \\* w\\^T as cblas_sgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 70\\): c = a\\^T \\* g as cblas_dgemm \\(m, n, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 111\\): y = x \\* w as cblas_sgemm \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line \[0-9\]+\\): loops, not a stage of one statement\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 129\\): y = x \\* w as cblas_sgemm \\(n, m, k\\)\n" } } */
