/* { dg-do run } */
/* A valid convolution (stride 1, no padding, so no bounds tests) as
   products over its patches (patches.c, run tiled), double: y[n][o][oh][ow]
   = sum over ci, kh, kw of x[n][ci][oh+kh][ow+kw] wt[o][ci][kh][kw] for
   oh < h - 2, ow < w - 2; d_wt[o][kk] += sum over n, pix of
   d_y[n][o][pix] x.col[n][kk][pix] (every patch inside the image),
   d_x gets d_x.col[n] = wt^T d_y[n] added back.  Sizes: 2 samples of 4
   channels of 12 x 14 into 8 (tiled: 8 x 36 x 120 and 36 x 120 x 8) and
   1 of 1 channel of 3 x 5 into 3 (the loops; one output row).  Every
   component against central differences, also with d_x and d_wt
   NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv_valid (int nb, int c, int h, int w, int f, const double *x,
	    const double *wt, double *y)
{
  int ho = h - 2, wo = w - 2;
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < ho; oh++)
	for (int ow = 0; ow < wo; ow++)
	  {
	    double acc = 0;
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  acc += x[((n * c + ci) * h + oh + kh) * w + ow + kw]
			 * wt[((o * c + ci) * 3 + kh) * 3 + kw];
	    y[((n * f + o) * ho + oh) * wo + ow] = acc;
	  }
}

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  int ny = nb * f * (h - 2) * (w - 2);
  double *x = tg_alloc (nb * c * h * w), *wt = tg_alloc (f * c * 9);
  double *y = tg_alloc (ny);
  tg_fill (x, nb * c * h * w, seed, -1, 1);
  tg_fill (wt, f * c * 9, seed + 1, -1, 1);
  TG_GRADCHECK (conv_valid, &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv_valid, "x", &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv_valid, "wt", &nb, &c, &h, &w, &f, x, wt, y);
}

int
main (void)
{
  run (2, 4, 12, 14, 8, 1);
  run (1, 1, 3, 5, 3, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_wt: the patches of x packed into x.col " } } */
/* { dg-final { scan-tensorgrad-dump "\n  patches: d_x: a product into d_x.col " } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = d_y \\* x.col\\^T as tiled " } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled " } } */
