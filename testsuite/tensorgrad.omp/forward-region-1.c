/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc" } */
/* -fplugin-arg-tensorgrad-tiled-forward in a kernel with OpenMP
   directives (plugin/forward.cc step 5): a parallel region whose one
   worksharing loop computes a product becomes a call of the tiled
   product, which runs on OpenMP threads (each thread a block of the
   result's columns), in place of the region.

     conv (float, bench/conv2d.c: samples and filters in parallel,
       collapse(2), padding by bounds tests): y = b + wt x.col per
       sample; sizes 3 x 2 x 6 x 5 into 4 (loops), 2 x 8 x 16 x 16 into
       16 and 2 x 5 x 13 x 11 into 9 (tiled).
     dense (double, a region with a declaration and one loop under
       "omp for schedule(dynamic)", a pointer to each row, tanh after
       the product): y = tanh (b + x w); 5 x 7 x 6 (loops), 40 x 33 x 48
       (tiled).
     two (float): a region with two worksharing loops, a product and a
       scaling: stays loops.
     counted (float): a region whose num_threads clause calls a
       function with a side effect: stays loops (the call is made).
     hidden (float): a region's product into a local array: stays
       loops.

   Each forward against its loops compiled without the plugin, within
   what another summation order allows; the tiled product's mallocs
   counted (tiled-forward.h); the forward at one thread and at three the
   same bits (an element's sum does not depend on the thread that
   computes it); every gradient against central differences.  */

#include <float.h>
#include <omp.h>
#include "tg-test.h"
#include "../tensorgrad.exec/tiled-forward.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

#define CONV_BODY                                                             \
  _Pragma ("omp parallel for collapse(2)")                                    \
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

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      const float *b, float *y)
{
  CONV_BODY
}

static void
conv_loops (int nb, int c, int h, int w, int f, const float *x,
	    const float *wt, const float *b, float *y)
{
  CONV_BODY
}

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const double *x, const double *wt,
       const double *b, double *y)
{
#pragma omp parallel
  {
    const int stride = k;
#pragma omp for schedule(dynamic)
    for (int i = 0; i < n; i++)
      {
	const double *xi = x + i * stride;
	for (int j = 0; j < m; j++)
	  {
	    double acc = b[j];
	    for (int p = 0; p < k; p++)
	      acc += xi[p] * wt[p * m + j];
	    y[i * m + j] = tanh (acc);
	  }
      }
  }
}

__attribute__ ((differentiable))
void
two (int n, int k, int m, const float *x, const float *wt, float *y,
     float *z)
{
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
	{
	  float acc = 0.0f;
	  for (int p = 0; p < k; p++)
	    acc += x[i * k + p] * wt[p * m + j];
	  y[i * m + j] = acc;
	}
#pragma omp for
    for (int i = 0; i < n * m; i++)
      z[i] = 2.0f * y[i];
  }
}

/* The region's num_threads calls a function with a side effect, which a
   call in place of the region would skip.  */
static int asked;

__attribute__ ((noinline)) static int
threads_wanted (void)
{
  asked++;
  return 2;
}

__attribute__ ((differentiable))
void
counted (int n, int k, int m, const float *x, const float *wt, float *y)
{
#pragma omp parallel for num_threads (threads_wanted ())
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * wt[p * m + j];
	y[i * m + j] = acc;
      }
}

__attribute__ ((differentiable))
float
hidden (int n, int k, int m, const float *x, const float *wt)
{
  float hid[n * m];
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * wt[p * m + j];
	hid[i * m + j] = acc;
      }
  float s = 0.0f;
  for (int i = 0; i < n * m; i++)
    s += hid[i] * hid[i];
  return s;
}

static void
run_conv (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *y3 = tg_alloc_f (ny), *ref = tg_alloc_f (ny);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  omp_set_num_threads (1);
  long before = malloc_calls;
  conv (nb, c, h, w, f, x, wt, b, y);
  long made = malloc_calls - before;
  omp_set_num_threads (3);
  conv (nb, c, h, w, f, x, wt, b, y3);
  omp_set_num_threads (TG_THREADS);
  conv_loops (nb, c, h, w, f, x, wt, b, ref);
  CHECK_AT (tiled_size (f, h * w, 9 * c) ? made > 0 : made == 0, h);
  for (int e = 0; e < ny; e++)
    {
      CHECK_NEAR_AT (y[e], ref[e], 0, 4.0 * (9 * c + 2) * FLT_EPSILON * (9 * c + 1), e);
      CHECK_AT (y[e] == y3[e], e);
    }
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (y3), free (ref);
}

static void
run_dense (int n, int k, int m, unsigned seed)
{
  double *x = tg_alloc (n * k), *wt = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m), *ref = tg_alloc (n * m);
  tg_fill (x, n * k, seed, -1, 1);
  tg_fill (wt, k * m, seed + 1, -0.3, 0.3);
  tg_fill (b, m, seed + 2, -1, 1);
  long before = malloc_calls;
  dense (n, k, m, x, wt, b, y);
  long made = malloc_calls - before;
  CHECK_AT (tiled_size (n, m, k) ? made > 0 : made == 0, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = b[j], s = fabs (b[j]);
	for (int p = 0; p < k; p++)
	  {
	    acc += x[i * k + p] * wt[p * m + j];
	    s += fabs (x[i * k + p] * wt[p * m + j]);
	  }
	ref[i * m + j] = tanh (acc);
	CHECK_NEAR_AT (y[i * m + j], ref[i * m + j], 0,
		       4.0 * (k + 2) * DBL_EPSILON * s + 4 * DBL_EPSILON,
		       i * m + j);
      }
  TG_GRADCHECK (dense, &n, &k, &m, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (ref);
}

static void
run_two (int n, int k, int m, unsigned seed)
{
  float *x = tg_alloc_f (n * k), *wt = tg_alloc_f (k * m);
  float *y = tg_alloc_f (n * m), *z = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, seed, -1, 1);
  tg_fill_f (wt, k * m, seed + 1, -1, 1);
  long before = malloc_calls;
  two (n, k, m, x, wt, y, z);
  CHECK (malloc_calls == before);
  TG_GRADCHECK (two, &n, &k, &m, x, wt, y, z);
  free (x), free (wt), free (y), free (z);
}

static void
run_counted (int n, int k, int m, unsigned seed)
{
  float *x = tg_alloc_f (n * k), *wt = tg_alloc_f (k * m);
  float *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, seed, -1, 1);
  tg_fill_f (wt, k * m, seed + 1, -1, 1);
  asked = 0;
  counted (n, k, m, x, wt, y);
  CHECK (asked == 1);
  TG_GRADCHECK (counted, &n, &k, &m, x, wt, y);
  free (x), free (wt), free (y);
}

static void
run_hidden (int n, int k, int m, unsigned seed)
{
  float *x = tg_alloc_f (n * k), *wt = tg_alloc_f (k * m);
  tg_fill_f (x, n * k, seed, -1, 1);
  tg_fill_f (wt, k * m, seed + 1, -1, 1);
  long before = malloc_calls;
  float s = hidden (n, k, m, x, wt);
  CHECK (malloc_calls == before);
  CHECK (s > 0);
  TG_GRADCHECK (hidden, &n, &k, &m, x, wt);
  free (x), free (wt);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  run_conv (3, 2, 6, 5, 4, 1);
  run_conv (2, 8, 16, 16, 16, 10);
  run_conv (2, 5, 13, 11, 9, 20);
  run_dense (5, 7, 6, 30);
  run_dense (40, 33, 48, 40);
  run_two (40, 33, 48, 50);
  run_counted (40, 33, 48, 70);
  run_hidden (6, 5, 7, 60);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 64\\): y = wt \\* x.col as tiled \\(f, max \\(h, 0\\) \\* max \\(w, 0\\), 9 \\* max \\(c, 0\\)\\) in a loop over n, on OpenMP threads, in place of the parallel region at line 64\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: the parallel region at line 64: a call of conv.blas.\[0-9\]+\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 91\\): y = x \\* wt as tiled \\(n, m, k\\), on OpenMP threads, in place of the parallel region at line 79\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: the parallel region at line 79: a call of dense.blas.\[0-9\]+\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 111\\): loops, an OpenMP kernel's nest that is not all its parallel region does\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 157\\): loops, an OpenMP kernel's product into a local array\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 141\\): loops, an OpenMP kernel's nest that is not all its parallel region does\n" } } */
