/* { dg-do run } */
/* A padded 3 x 3 convolution whose kernel tests its weights against
   NULL (if (wt && ...)): d_wt's statement still runs as a product over
   x's patches (the patched array is x; the packing keeps the test), but
   d_x's would load wt in a product without its test, so it stays loops
   (patches.c).  Float, 2 samples of 4 channels of 10 x 13 into 8 (tiled
   sizes).  y[n][o][oh][ow] = sum over ci, kh, kw in bounds of
   x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw] when wt is not NULL;
   d_wt[o][kk] += sum over n, pix of d_y[n][o][pix] x.col[n][kk][pix],
   d_x[n][ci][ih][iw] += sum of wt d_y over the taps that read it.
   Every component against central differences, also with d_x and d_wt
   NULL, and the gradient with wt NULL adds nothing.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      float *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    float acc = 0;
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (wt && ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += x[((n * c + ci) * h + ih) * w + iw]
			     * wt[((o * c + ci) * 3 + kh) * 3 + kw];
		  }
	    y[((n * f + o) * h + oh) * w + ow] = acc;
	  }
}

void conv_grad (int, int, int, int, int, const float *, const float *,
		float *, float *, float *, float *);

int
main (void)
{
  int nb = 2, c = 4, h = 10, w = 13, f = 8;
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *y = tg_alloc_f (ny);
  float *d_x = tg_alloc_f (nx), *d_y = tg_alloc_f (ny);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (wt, nw, 2, -1, 1);
  tg_fill_f (d_y, ny, 3, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv, "wt", &nb, &c, &h, &w, &f, x, wt, y);
  conv (nb, c, h, w, f, x, NULL, y);
  conv_grad (nb, c, h, w, f, x, NULL, y, d_x, NULL, d_y);
  for (int i = 0; i < nx; i++)
    CHECK (d_x[i] == 0);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_wt: the patches of x packed into x.col " } } */
/* { dg-final { scan-tensorgrad-dump-not "\n  patches: d_x:" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = d_y \\* x.col\\^T as tiled " } } */
