/* { dg-do run } */
/* A padded 3 x 3 convolution in NHWC (channels innermost: x[n][ih][iw][ci],
   wt[o][kh][kw][ci], y[n][oh][ow][o]) as tiled products over its
   patches (patches.c): the taps (kh, kw, ci) are one counter kk of the
   weights and the pixels (oh, ow) one counter pix of y's rows, f apart,
   so d_wt = d_y^T x.col and d_x.col = wt^T d_y^T per sample.  Float,
   2 samples of 9 x 11 pixels of 4 channels into 8 (tiled sizes), and 1
   of 4 x 3 of 1 channel into 3.  Every component against central
   differences, also with d_x and d_wt NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv_nhwc (int nb, int h, int w, int c, int f, const float *x,
	   const float *wt, float *y)
{
  for (int n = 0; n < nb; n++)
    for (int oh = 0; oh < h; oh++)
      for (int ow = 0; ow < w; ow++)
	for (int o = 0; o < f; o++)
	  {
	    float acc = 0;
	    for (int kh = 0; kh < 3; kh++)
	      for (int kw = 0; kw < 3; kw++)
		for (int ci = 0; ci < c; ci++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += x[((n * h + ih) * w + iw) * c + ci]
			     * wt[((o * 3 + kh) * 3 + kw) * c + ci];
		  }
	    y[((n * h + oh) * w + ow) * f + o] = acc;
	  }
}

static void
run (int nb, int h, int w, int c, int f, unsigned seed)
{
  float *x = tg_alloc_f (nb * h * w * c), *wt = tg_alloc_f (f * 9 * c);
  float *y = tg_alloc_f (nb * h * w * f);
  tg_fill_f (x, nb * h * w * c, seed, -1, 1);
  tg_fill_f (wt, f * 9 * c, seed + 1, -1, 1);
  TG_GRADCHECK (conv_nhwc, &nb, &h, &w, &c, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv_nhwc, "x", &nb, &h, &w, &c, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv_nhwc, "wt", &nb, &h, &w, &c, &f, x, wt, y);
}

int
main (void)
{
  run (2, 9, 11, 4, 8, 1);
  run (1, 4, 3, 1, 3, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_wt: the patches of x packed into x.col " } } */
/* { dg-final { scan-tensorgrad-dump "\n  patches: d_x: a product into d_x.col " } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = " } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = " } } */
