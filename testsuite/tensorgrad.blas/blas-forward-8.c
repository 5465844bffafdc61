/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward in kernels with OpenMP
   directives, built with -fopenmp (plugin/forward.cc step 5): a
   parallel region whose one worksharing loop computes a product becomes
   a call of the CBLAS (which has threads of its own) in place of the
   region.

     dense (float, rows in parallel, tanh after the product):
       y = tanh (b + x w), 37 x 29 x 23: one cblas_sgemm per call; also
       called by each of two threads of an outer region on its own half
       of the rows.
     conv (double, bench/conv2d.c's loops: samples and filters in
       parallel, collapse(2)): y = b + wt x.col, 3 samples of 4 x 7 x 6
       into 5 filters: one cblas_dgemm per sample.

   Each forward against its loops compiled without the plugin, within
   what another summation order allows; the calls counted
   (blas-calls.h); every gradient against central differences.  */
/* { dg-options "-fopenmp -fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include <float.h>
#include <omp.h>
#include "tg-test.h"
#include "blas-calls.h"

#define DENSE_BODY                                                            \
  _Pragma ("omp parallel for")                                                \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < m; j++)                                               \
      {                                                                       \
	float acc = b[j];                                                     \
	for (int p = 0; p < k; p++)                                           \
	  acc += x[i * k + p] * w[p * m + j];                                 \
	y[i * m + j] = tanhf (acc);                                           \
      }

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const float *x, const float *w, const float *b,
       float *y)
{
  DENSE_BODY
}

static void
dense_loops (int n, int k, int m, const float *x, const float *w,
	     const float *b, float *y)
{
  DENSE_BODY
}

#define CONV_BODY                                                             \
  _Pragma ("omp parallel for collapse(2)")                                    \
  for (int n = 0; n < nb; n++)                                                \
    for (int o = 0; o < f; o++)                                               \
      for (int oh = 0; oh < h; oh++)                                          \
	for (int ow = 0; ow < w; ow++)                                        \
	  {                                                                   \
	    double acc = b[o];                                                \
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

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const double *x, const double *wt,
      const double *b, double *y)
{
  CONV_BODY
}

static void
conv_loops (int nb, int c, int h, int w, int f, const double *x,
	    const double *wt, const double *b, double *y)
{
  CONV_BODY
}

int
main (void)
{
  int n = 37, k = 29, m = 23;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m), *y2 = tg_alloc_f (n * m);
  float *ref = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -0.4, 0.4);
  tg_fill_f (b, m, 3, -1, 1);
  int before = sgemm_calls;
  dense (n, k, m, x, w, b, y);
  CHECK (sgemm_calls == before + 1);
  dense_loops (n, k, m, x, w, b, ref);
  /* |acc| <= 1 + 29 * 0.4: tanh moves an error by at most as much.  */
  for (int e = 0; e < n * m; e++)
    CHECK_NEAR_AT (y[e], ref[e], 0, 4.0 * (k + 2) * FLT_EPSILON * 13, e);
  /* Two threads of an outer region, each on its own rows.  */
  int half = n / 2;
#pragma omp parallel num_threads(2)
  {
    int id = omp_get_thread_num ();
    int rows = id ? n - half : half;
    int first = id ? half : 0;
    dense (rows, k, m, x + first * k, w, b, y2 + first * m);
  }
  for (int e = 0; e < n * m; e++)
    CHECK_AT (y2[e] == y[e] || fabsf (y2[e] - y[e]) <= 4e-6f, e);
  TG_GRADCHECK (dense, &n, &k, &m, x, w, b, y);

  int nb = 3, c = 4, h = 7, wd = 6, f = 5;
  int nx = nb * c * h * wd, nw = f * c * 9, ny = nb * f * h * wd;
  double *cx = tg_alloc (nx), *cw = tg_alloc (nw), *cb = tg_alloc (f);
  double *cy = tg_alloc (ny), *cref = tg_alloc (ny);
  tg_fill (cx, nx, 4, -1, 1);
  tg_fill (cw, nw, 5, -1, 1);
  tg_fill (cb, f, 6, -1, 1);
  before = dgemm_calls;
  conv (nb, c, h, wd, f, cx, cw, cb, cy);
  CHECK (dgemm_calls == before + nb);
  conv_loops (nb, c, h, wd, f, cx, cw, cb, cref);
  for (int e = 0; e < ny; e++)
    CHECK_NEAR_AT (cy[e], cref[e], 0, 4.0 * (9 * c + 2) * DBL_EPSILON * (9 * c + 1), e);
  TG_GRADCHECK (conv, &nb, &c, &h, &wd, &f, cx, cw, cb, cy);
  free (x), free (w), free (b), free (y), free (y2), free (ref);
  free (cx), free (cw), free (cb), free (cy), free (cref);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 42\\): y = x \\* w as cblas_sgemm \\(n, m, k\\), on OpenMP threads, in place of the parallel region at line 42\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: the parallel region at line 42: a call of dense.blas.\[0-9\]+\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: the parallel region at line 77: a call of conv.blas.\[0-9\]+\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
