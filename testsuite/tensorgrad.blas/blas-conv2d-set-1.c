/* { dg-do run } */
/* With -fplugin-arg-tensorgrad-blas, the product into a padded 3 x 3
   convolution's d_x.col (d_x.col[n] = wt^T d_y[n], c 9 by h w over f)
   fills the array, which nothing wrote before: it runs with beta 0
   into an array allocated without zeroing (lower.c step 6c), and where
   it does not run (d_y NULL, a zero adjoint) the array is zeroed before
   col2im adds it into d_x (d_x[n] gets d_x.col[n] over the patches
   where the padding's tests hold); d_wt[o][kk] += d_y[n] x.col[n]^T,
   d_b[o] += sum d_y[n][o].  The link wraps malloc to fill every block
   with NaNs, so an element read before it is written shows in d_x.
   Odd sizes (3 samples of 3 channels of 5 x 7 into 3 filters), one
   sample (1 channel of 4 x 5 into 2), float and double; every
   component against central differences, also with d_x, d_wt or d_y
   NULL, and the products counted (one per sample for each of d_x.col
   and d_wt).  With d_y NULL the products are skipped (under no-opt they
   run on the zeros of d_y's copy) and d_x gets zeros.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm -Wl,--wrap=malloc" } */

#include "tg-test.h"
#include "blas-calls.h"
#include "poison-malloc.h"

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
  TG_GRADCHECK_NULL (conv_f, "y", &nb, &c, &h, &w, &f, x, wt, b, y);
  conv_f (nb, c, h, w, f, x, wt, b, y);
  int before = sgemm_calls, mallocs = poisoned_mallocs;
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y);
  CHECK (sgemm_calls == before + 2 * nb);
  CHECK (poisoned_mallocs > mallocs);
  /* d_y NULL: d_x gets nothing, and no NaN.  */
  for (int i = 0; i < nx; i++)
    d_x[i] = 0;
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, NULL);
  for (int i = 0; i < nx; i++)
    CHECK (d_x[i] == 0);

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
  TG_GRADCHECK_NULL (conv_d, "y", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
}

int
main (void)
{
  run (3, 3, 5, 7, 3, 1);
  run (1, 1, 4, 5, 2, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: blas: d_x.col = wt\\^T \\* \[a-z0-9_\]+ as cblas_sgemm \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\nlower: stage \[0-9\]+: the product fills 'd_x.col', not zeroed\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: blas: d_x.col = wt\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\nlower: stage \[0-9\]+: the product fills 'd_x.col', not zeroed\n" } } */
/* { dg-final { scan-tensorgrad-dump-not "the product fills 'x.col'" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */
