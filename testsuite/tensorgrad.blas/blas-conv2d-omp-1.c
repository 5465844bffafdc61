/* { dg-do run } */
/* With -fplugin-arg-tensorgrad-blas, bench/conv2d.c's kernel (samples
   and filters in parallel, collapse(2)) built with -fopenmp: its
   gradient still runs as CBLAS products over the patches (patches.c;
   the CBLAS has threads of its own), one per sample for each of d_wt
   and d_x, the packing and col2im serially.  Float,
   y[n][o][oh][ow] = b[o] + sum over ci, kh, kw in bounds of
   x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw]; d_wt[o][kk] += d_y[n]
   x.col[n]^T, d_x.col[n] = wt^T d_y[n] added back over the patches.
   3 samples of 2 channels of 6 x 5 into 4.  Every component against
   central differences, also with d_x and d_wt NULL, and the calls
   counted: 2 per sample.  */
/* { dg-options "-fopenmp -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include "tg-test.h"
#include "blas-calls.h"

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      const float *b, float *y)
{
#pragma omp parallel for collapse(2)
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    float acc = b[o];
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += x[((n * c + ci) * h + ih) * w + iw]
			     * wt[((o * c + ci) * 3 + kh) * 3 + kw];
		  }
	    y[((n * f + o) * h + oh) * w + ow] = acc;
	  }
}

void conv_grad (int, int, int, int, int, const float *, const float *,
		const float *, float *, float *, float *, float *, float *);

int
main (void)
{
  int nb = 3, c = 2, h = 6, w = 5, f = 4;
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *d_x = tg_alloc_f (nx), *d_wt = tg_alloc_f (nw);
  float *d_b = tg_alloc_f (f), *d_y = tg_alloc_f (ny);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (wt, nw, 2, -1, 1);
  tg_fill_f (b, f, 3, -1, 1);
  tg_fill_f (d_y, ny, 4, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
  conv (nb, c, h, w, f, x, wt, b, y);
  int before = sgemm_calls;
  conv_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y);
  CHECK (sgemm_calls == before + 2 * nb);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_wt: the patches of x packed into x.col " } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x.col = wt\\^T \\* \[a-z0-9_\]+ as cblas_sgemm \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
