/* { dg-do run } */
/* Products over the patches (patches.c, run tiled) for other windows,
   double: a 5 x 5 filter with a padding of 2 on 9 x 11 images, and a
   1 x 3 filter padded along the rows only, one sample of 10 x 20.
   conv5: y[n][o][oh][ow] = b[o] + sum over ci, kh, kw in bounds of
   x[n][ci][oh+kh-2][ow+kw-2] wt[o][ci][kh][kw]; conv13: y[n][o][oh][ow]
   = sum over ci, kw in bounds of x[n][ci][oh][ow+kw-1] wt[o][ci][kw]
   (no bias).  d_wt[o][kk] += sum over n, pix of d_y x.col[n][kk][pix],
   d_x gets d_x.col[n] = wt^T d_y[n] added back over the patches.  Sizes
   where both products pass tiled.h's test (conv5: 8 x 75 x 99 and 75 x
   99 x 8; conv13: 8 x 24 x 200 and 24 x 200 x 8) and small ones (the
   products' loops).  Every component against central differences,
   also with d_x and d_wt NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv5 (int nb, int c, int h, int w, int f, const double *x, const double *wt,
       const double *b, double *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    double acc = b[o];
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 5; kh++)
		for (int kw = 0; kw < 5; kw++)
		  {
		    int ih = oh + kh - 2, iw = ow + kw - 2;
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += x[((n * c + ci) * h + ih) * w + iw]
			     * wt[((o * c + ci) * 5 + kh) * 5 + kw];
		  }
	    y[((n * f + o) * h + oh) * w + ow] = acc;
	  }
}

__attribute__ ((differentiable))
void
conv13 (int nb, int c, int h, int w, int f, const double *x,
	const double *wt, double *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    double acc = 0;
	    for (int ci = 0; ci < c; ci++)
	      for (int kw = 0; kw < 3; kw++)
		{
		  int iw = ow + kw - 1;
		  if (iw >= 0 && iw < w)
		    acc += x[((n * c + ci) * h + oh) * w + iw]
			   * wt[(o * c + ci) * 3 + kw];
		}
	    y[((n * f + o) * h + oh) * w + ow] = acc;
	  }
}

static void
run5 (int nb, int c, int h, int w, int f, unsigned seed)
{
  double *x = tg_alloc (nb * c * h * w), *wt = tg_alloc (f * c * 25);
  double *b = tg_alloc (f), *y = tg_alloc (nb * f * h * w);
  tg_fill (x, nb * c * h * w, seed, -1, 1);
  tg_fill (wt, f * c * 25, seed + 1, -1, 1);
  tg_fill (b, f, seed + 2, -1, 1);
  TG_GRADCHECK (conv5, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv5, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv5, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
}

static void
run13 (int nb, int c, int h, int w, int f, unsigned seed)
{
  double *x = tg_alloc (nb * c * h * w), *wt = tg_alloc (f * c * 3);
  double *y = tg_alloc (nb * f * h * w);
  tg_fill (x, nb * c * h * w, seed, -1, 1);
  tg_fill (wt, f * c * 3, seed + 1, -1, 1);
  TG_GRADCHECK (conv13, &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv13, "x", &nb, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv13, "wt", &nb, &c, &h, &w, &f, x, wt, y);
}

int
main (void)
{
  run5 (1, 3, 9, 11, 8, 1);
  run5 (2, 1, 4, 6, 3, 10);
  run13 (1, 8, 10, 20, 8, 20);
  run13 (2, 2, 3, 5, 3, 30);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = d_y \\* x.col\\^T as tiled \\(f, 25 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled \\(25 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_wt = d_y \\* x.col\\^T as tiled \\(f, 3 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\)\\) in a loop over n\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled \\(3 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\n" } } */
