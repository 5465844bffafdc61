/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward: a convolution's forward as an
   im2col product (te_gemm_forward's im2col): the input's patches packed
   into a temporary, with the padding's tests, then one CBLAS call per
   sample.

   conv2d (float, as bench/conv2d.c: NCHW, 3x3, zero padding 1 tested in
     the loop, a bias per filter):
       y[n][o][oh][ow] = b[o] + sum_{ci,kh,kw} [0 <= oh+kh-1 < h,
                         0 <= ow+kw-1 < w] x[n][ci][oh+kh-1][ow+kw-1]
                         wt[o][ci][kh][kw]
     y[n] = wt * col(x[n]), one cblas_sgemm per sample n, the patches
     packed and multiplied one sample at a time (samples.c): the helper
     allocates one sample's patches (c 9 rows of h w and a cache line,
     te_gemm_patches), never the batch's (the link wraps calloc).
   conv1d (double, "valid", no tests; K taps, outputs L - K + 1):
       y[(n*f + o)*lo + t] = tanh (b[o] + sum_{ci,k} x[(n*c + ci)*l + t + k]
                                    wt[(o*c + ci)*K + k])
     one cblas_dgemm per sample, then tanh in a loop.
   gapped (float): the filter's rows K + 1 apart (wt[(o*c + ci)*(K + 1)
     + k]), no factor whose summed loops move as one counter: stays
     loops.

   Each forward against a copy of its loops compiled without the plugin,
   within what another summation order allows (4 (terms + 1) eps
   sum |terms|); the CBLAS calls counted (the link wraps cblas_sgemm and
   cblas_dgemm).  Odd sizes, sizes of one (a 1x1 image: only the centre
   tap).  The gradients against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm -Wl,--wrap=calloc" } */

#include "tg-test.h"
#include <float.h>

#include "blas-calls.h"

static size_t sizes[64];
static int nsizes, recording;

void *__real_calloc (size_t, size_t);

void *
__wrap_calloc (size_t n, size_t m)
{
  if (recording && nsizes < 64)
    sizes[nsizes++] = n * m;
  return __real_calloc (n, m);
}

#define CONV2D_BODY                                                           \
  for (int n = 0; n < nb; n++)                                                \
    for (int o = 0; o < f; o++)                                               \
      for (int oh = 0; oh < h; oh++)                                          \
	for (int ow = 0; ow < w; ow++)                                        \
	  {                                                                   \
	    float acc = b[o];                                                 \
	    for (int ci = 0; ci < c; ci++)                                    \
	      for (int kh = 0; kh < 3; kh++)                                  \
		for (int kw = 0; kw < 3; kw++)                                \
		  {                                                           \
		    int ih = oh + kh - 1, iw = ow + kw - 1;                   \
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)               \
		      acc += x[((n * c + ci) * h + ih) * w + iw]              \
			     * wt[((o * c + ci) * 3 + kh) * 3 + kw];          \
		  }                                                           \
	    y[((n * f + o) * h + oh) * w + ow] = acc;                         \
	  }

__attribute__ ((differentiable)) void
conv2d (int nb, int c, int h, int w, int f, const float *x, const float *wt,
	const float *b, float *y)
{
  CONV2D_BODY
}

static void
conv2d_loops (int nb, int c, int h, int w, int f, const float *x,
	      const float *wt, const float *b, float *y)
{
  CONV2D_BODY
}

#define CONV1D_BODY                                                           \
  int lo = l - K + 1;                                                         \
  for (int n = 0; n < nb; n++)                                                \
    for (int o = 0; o < f; o++)                                               \
      for (int t = 0; t < lo; t++)                                            \
	{                                                                     \
	  double acc = b[o];                                                  \
	  for (int ci = 0; ci < c; ci++)                                      \
	    for (int k = 0; k < K; k++)                                       \
	      acc += x[(n * c + ci) * l + t + k] * wt[(o * c + ci) * K + k];  \
	  y[(n * f + o) * lo + t] = tanh (acc);                               \
	}

__attribute__ ((differentiable)) void
conv1d (int nb, int c, int l, int K, int f, const double *x,
	const double *wt, const double *b, double *y)
{
  CONV1D_BODY
}

static void
conv1d_loops (int nb, int c, int l, int K, int f, const double *x,
	      const double *wt, const double *b, double *y)
{
  CONV1D_BODY
}

#define GAPPED_BODY                                                           \
  for (int n = 0; n < nb; n++)                                                \
    for (int o = 0; o < f; o++)                                               \
      for (int t = 0; t < l - K + 1; t++)                                     \
	{                                                                     \
	  float acc = 0.0f;                                                   \
	  for (int ci = 0; ci < c; ci++)                                      \
	    for (int k = 0; k < K; k++)                                       \
	      acc += x[(n * c + ci) * l + t + k]                              \
		     * wt[(o * c + ci) * (K + 1) + k];                        \
	  y[(n * f + o) * (l - K + 1) + t] = acc;                             \
	}

__attribute__ ((differentiable)) void
gapped (int nb, int c, int l, int K, int f, const float *x, const float *wt,
	float *y)
{
  GAPPED_BODY
}

static void
gapped_loops (int nb, int c, int l, int K, int f, const float *x,
	      const float *wt, float *y)
{
  GAPPED_BODY
}

static void
run_conv2d (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *ref = tg_alloc_f (ny);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  int before = sgemm_calls;
  nsizes = 0;
  recording = 1;
  conv2d (nb, c, h, w, f, x, wt, b, y);
  recording = 0;
  size_t one = (size_t) c * 9 * (h * w * sizeof (float) + 64);
  int seen = 0;
  for (int i = 0; i < nsizes; i++)
    {
      seen += sizes[i] == one;
      if (nb > 1)
	CHECK (sizes[i] != nb * one);
    }
  CHECK (seen == 1);
  conv2d_loops (nb, c, h, w, f, x, wt, b, ref);
  CHECK (sgemm_calls == before + nb);
  /* |terms| <= 1 each, 9 c of them, and |b| <= 1.  */
  double bound = 4.0 * (9 * c + 1) * FLT_EPSILON * (9 * c + 1);
  for (int e = 0; e < ny; e++)
    CHECK_NEAR_AT (y[e], ref[e], 0, bound, e);
  TG_GRADCHECK (conv2d, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv2d, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (ref);
}

static void
run_conv1d (int nb, int c, int l, int K, int f, unsigned seed)
{
  int lo = l - K + 1, nx = nb * c * l, nw = f * c * K, ny = nb * f * lo;
  double *x = tg_alloc (nx), *wt = tg_alloc (nw), *b = tg_alloc (f);
  double *y = tg_alloc (ny), *ref = tg_alloc (ny);
  tg_fill (x, nx, seed, -1, 1);
  tg_fill (wt, nw, seed + 1, -1, 1);
  tg_fill (b, f, seed + 2, -1, 1);
  int before = dgemm_calls;
  conv1d (nb, c, l, K, f, x, wt, b, y);
  conv1d_loops (nb, c, l, K, f, x, wt, b, ref);
  CHECK (dgemm_calls == before + nb);
  double bound = 4.0 * (c * K + 1) * DBL_EPSILON * (c * K + 1);
  for (int e = 0; e < ny; e++)
    CHECK_NEAR_AT (y[e], ref[e], 0, bound, e);
  TG_GRADCHECK (conv1d, &nb, &c, &l, &K, &f, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (ref);
}

static void
run_gapped (int nb, int c, int l, int K, int f, unsigned seed)
{
  int lo = l - K + 1, nx = nb * c * l, nw = f * c * (K + 1), ny = nb * f * lo;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw);
  float *y = tg_alloc_f (ny), *ref = tg_alloc_f (ny);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  int before = sgemm_calls;
  gapped (nb, c, l, K, f, x, wt, y);
  gapped_loops (nb, c, l, K, f, x, wt, ref);
  CHECK (sgemm_calls == before);
  CHECK_SAME (y, ref, ny * sizeof *y);
  TG_GRADCHECK (gapped, &nb, &c, &l, &K, &f, x, wt, y);
  free (x), free (wt), free (y), free (ref);
}

int
main (void)
{
  run_conv2d (2, 3, 5, 7, 4, 1);
  run_conv2d (1, 1, 1, 1, 1, 10);
  run_conv2d (3, 2, 1, 6, 3, 20);
  run_conv1d (2, 3, 11, 4, 5, 30);
  run_conv1d (1, 1, 1, 1, 1, 40);
  run_gapped (2, 3, 9, 3, 2, 50);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 72\\): y = wt \\* x.col as cblas_sgemm \\(f, max \\(h, 0\\) \\* max \\(w, 0\\), 9 \\* max \\(c, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 99\\): y = wt \\* x.col as cblas_dgemm \\(f, max \\(1 \\+ l - K, 0\\), max \\(c, 0\\) \\* max \\(K, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 126\\): loops, no factor the summed loops move as one counter\n" } } */
