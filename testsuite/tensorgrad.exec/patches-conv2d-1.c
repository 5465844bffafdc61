/* { dg-do run } */
/* Without -fplugin-arg-tensorgrad-blas, a padded 3 x 3 convolution's
   gradient runs as tiled products over its patches (patches.c, then
   lib/back/tiled.h): float, NCHW, zero padding by bounds tests that skip
   the tap with continue, pointer offsets into the rows, a bias.
   y[n][o][oh][ow] = b[o] + sum over ci, kh, kw in bounds of
   x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw], so
   d_wt[o][kk] += sum over n, pix of d_y[n][o][pix] x.col[n][kk][pix]
   (kk = (ci, kh, kw), pix = (oh, ow), x.col the zero-padded patches),
   d_x[n][ci][ih][iw] += sum of d_x.col[n][kk][pix] over the taps that
   read it, d_x.col[n] = wt^T d_y[n], and d_b[o] += sum d_y[n][o].
   Sizes: 2 samples of 4 channels of 10 x 13 into 8 (both products pass
   tiled.h's size test: 8 x 36 x 130 and 36 x 130 x 8), and 1 sample of
   1 channel of 5 x 7 into 3 (the products' loops).  Every component
   against central differences, also with d_x and d_wt NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      const float *b, float *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      {
	const float *wo = wt + o * c * 9;
	float *yo = y + (n * f + o) * h * w;
	for (int oh = 0; oh < h; oh++)
	  for (int ow = 0; ow < w; ow++)
	    {
	      float acc = b[o];
	      for (int ci = 0; ci < c; ci++)
		{
		  const float *xc = x + (n * c + ci) * h * w;
		  const float *wc = wo + ci * 9;
		  for (int kh = 0; kh < 3; kh++)
		    {
		      int ih = oh + kh - 1;
		      if (ih < 0 || ih >= h)
			continue;
		      for (int kw = 0; kw < 3; kw++)
			{
			  int iw = ow + kw - 1;
			  if (iw < 0 || iw >= w)
			    continue;
			  acc += xc[ih * w + iw] * wc[kh * 3 + kw];
			}
		    }
		}
	      yo[oh * w + ow] = acc;
	    }
      }
}

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  float *x = tg_alloc_f (nb * c * h * w), *wt = tg_alloc_f (f * c * 9);
  float *b = tg_alloc_f (f), *y = tg_alloc_f (nb * f * h * w);
  tg_fill_f (x, nb * c * h * w, seed, -1, 1);
  tg_fill_f (wt, f * c * 9, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
}

int
main (void)
{
  run (2, 4, 10, 13, 8, 1);
  run (1, 1, 5, 7, 3, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  patches: d_x: a product into d_x.col \\(9 \\* max \\(c, 0\\) by max \\(h, 0\\) \\* max \\(w, 0\\) per batch iteration\\), added back over the patches \\(col2im\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  patches: d_wt: the patches of x packed into x.col \\(9 \\* max \\(c, 0\\) by max \\(h, 0\\) \\* max \\(w, 0\\) per batch iteration\\), then a product\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = d_y \\* x.col\\^T as tiled \\(f, 9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\)\\) in a loop over n\n" } } */
