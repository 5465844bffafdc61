/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* bench/conv2d.c's kernel (samples and filters in parallel,
   collapse(2)), float: without -fplugin-arg-tensorgrad-blas its
   gradient runs as tiled products over its patches (patches.c), on the
   OpenMP threads (each thread a block of the result's columns: plugin/
   emit.cc, tiled_team), the packing and col2im serially, one sample at
   a time.
   y[n][o][oh][ow] = b[o] + sum over ci, kh, kw in bounds of
   x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw]; d_wt[o] += d_y[n]
   x.col[n]^T, d_x.col[n] = wt^T d_y[n] added back over the patches.
   Sizes the tiled products take (2 samples of 4 channels of 10 x 13
   into 8).  Every component against central differences, also with d_x
   and d_wt NULL; omp.exp runs it at 1, 2 and 4 threads.  */

#include "tg-test.h"

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

int
main (void)
{
  int nb = 2, c = 4, h = 10, w = 13, f = 8;
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (wt, nw, 2, -1, 1);
  tg_fill_f (b, f, 3, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  blas: d_wt = d_y \\* x.col\\^T as tiled \\(f, 9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x.col = wt\\^T \\* d_y as tiled \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  parallel: the tiled product writing d_wt runs on OpenMP threads, each on a block of its columns\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  parallel: the tiled product writing d_x.col runs on OpenMP threads, each on a block of its columns\n" } } */
