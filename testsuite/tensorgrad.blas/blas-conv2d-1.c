/* { dg-do run } */
/* With -fplugin-arg-tensorgrad-blas, a padded 3 x 3 convolution's
   gradient runs as CBLAS products over its patches (patches.c), one
   per sample for each of d_wt and d_x: bench/conv2d.c's kernel, NCHW,
   float, and the same in double.
   d_wt[o][kk] += d_y[n] x.col[n]^T (f by c 9 over h w; x.col[n] the
   zero-padded patches, kk = (ci, kh, kw)); d_x.col[n] = wt^T d_y[n]
   (c 9 by h w over f), added back into d_x[n] over the patches where
   the padding's tests hold (col2im); d_b[o] += sum d_y[n][o].
   Sizes: 3 samples of 2 channels of 6 x 5 into 3 filters, and 1 sample
   of 1 channel of 4 x 7 into 2.  Every component against central
   differences, also with d_x and d_wt NULL, and the calls counted (the
   link wraps cblas_sgemm and cblas_dgemm): 2 per sample, 1 per sample
   with d_wt or d_x NULL (d_x.col's product is skipped with col2im, its
   one reader: lower.c step 6b).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include "tg-test.h"
#include "blas-calls.h"

#define CONV(NAME, T)							\
  __attribute__ ((differentiable)) void					\
  NAME (int nb, int c, int h, int w, int f, const T *x, const T *wt,	\
	const T *b, T *y)						\
  {									\
    for (int n = 0; n < nb; n++)					\
      for (int o = 0; o < f; o++)					\
	for (int oh = 0; oh < h; oh++)					\
	  for (int ow = 0; ow < w; ow++)				\
	    {								\
	      T acc = b[o];						\
	      for (int ci = 0; ci < c; ci++)				\
		for (int kh = 0; kh < 3; kh++)				\
		  for (int kw = 0; kw < 3; kw++)			\
		    {							\
		      int ih = oh + kh - 1, iw = ow + kw - 1;		\
		      if (ih >= 0 && ih < h && iw >= 0 && iw < w)	\
			acc += x[((n * c + ci) * h + ih) * w + iw]	\
			       * wt[((o * c + ci) * 3 + kh) * 3 + kw];	\
		    }							\
	      y[((n * f + o) * h + oh) * w + ow] = acc;			\
	    }								\
  }

CONV (conv_f, float)
CONV (conv_d, double)

void conv_f_grad (int, int, int, int, int, const float *, const float *,
		  const float *, float *, float *, float *, float *, float *);
void conv_d_grad (int, int, int, int, int, const double *, const double *,
		  const double *, double *, double *, double *, double *,
		  double *);

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *d_x = tg_alloc_f (nx), *d_wt = tg_alloc_f (nw);
  float *d_b = tg_alloc_f (f), *d_y = tg_alloc_f (ny);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  tg_fill_f (d_y, ny, seed + 3, -1, 1);
  TG_GRADCHECK (conv_f, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
  conv_f (nb, c, h, w, f, x, wt, b, y);
  int before = sgemm_calls;
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y);
  CHECK (sgemm_calls == before + 2 * nb);
  before = sgemm_calls;
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, d_x, NULL, d_b, d_y);
  CHECK (sgemm_calls == before + nb);
  before = sgemm_calls;
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, NULL, d_wt, d_b, d_y);
  CHECK (sgemm_calls == before + nb);

  double *xd = tg_alloc (nx), *wd = tg_alloc (nw), *bd = tg_alloc (f);
  double *yd = tg_alloc (ny);
  tg_fill (xd, nx, seed + 4, -1, 1);
  tg_fill (wd, nw, seed + 5, -1, 1);
  tg_fill (bd, f, seed + 6, -1, 1);
  before = dgemm_calls;
  TG_GRADCHECK (conv_d, &nb, &c, &h, &w, &f, xd, wd, bd, yd);
  CHECK (dgemm_calls > before);
  TG_GRADCHECK_NULL (conv_d, "x", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
  TG_GRADCHECK_NULL (conv_d, "wt", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
}

int
main (void)
{
  run (3, 2, 6, 5, 3, 1);
  run (1, 1, 4, 7, 2, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_x: a product into d_x.col \\(9 \\* max \\(c, 0\\) by max \\(h, 0\\) \\* max \\(w, 0\\) per batch iteration\\), added back over the patches \\(col2im\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+ statement 0: skipped when d_x is NULL\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_wt = \[a-z0-9_\]+ \\* x.col\\^T as cblas_sgemm \\(f, 9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x.col = wt\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
