/* { dg-do run } */
/* Two padded 3 x 3 convolutions with a tanh between, the hidden maps a
   local array (a small CNN block), float: the gradient runs its
   products one sample at a time in two groups (samples.c): the second
   convolution's d_hid.col product and col2im into d_hid, then the
   packing of hid, d_w2's product, tanh's derivative, the first
   convolution's d_x.col product, col2im into d_x and the packing of x.
   d_hid.col, hid.col and d_x.col hold one sample; x.col stays the
   batch's (d_w1's product reads the batch's tanh derivative d3, whose
   slices the pass cannot bound: its reads run over max (h, 0) * max
   (w, 0) pixels).  Sizes where the tiled products run (3 samples of 4
   channels of 9 x 11 into 8) and their loops (2 of 2 channels of 4 x 3
   into 3); every component against central differences, also with d_x
   or d_w1 NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"
#include <math.h>

__attribute__ ((differentiable))
void
block (int nb, int c, int h, int w, int f, const float *x, const float *w1,
       const float *w2, float *y)
{
  float hid[nb * f * h * w];
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    float acc = 0.0f;
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += x[((n * c + ci) * h + ih) * w + iw]
			     * w1[((o * c + ci) * 3 + kh) * 3 + kw];
		  }
	    hid[((n * f + o) * h + oh) * w + ow] = tanhf (acc);
	  }
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    float acc = 0.0f;
	    for (int ci = 0; ci < f; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		      acc += hid[((n * f + ci) * h + ih) * w + iw]
			     * w2[((o * f + ci) * 3 + kh) * 3 + kw];
		  }
	    y[((n * f + o) * h + oh) * w + ow] = acc;
	  }
}

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, n1 = f * c * 9, n2 = f * f * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *w1 = tg_alloc_f (n1), *w2 = tg_alloc_f (n2);
  float *y = tg_alloc_f (ny);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (w1, n1, seed + 1, -1, 1);
  tg_fill_f (w2, n2, seed + 2, -1, 1);
  TG_GRADCHECK (block, &nb, &c, &h, &w, &f, x, w1, w2, y);
  TG_GRADCHECK_NULL (block, "x", &nb, &c, &h, &w, &f, x, w1, w2, y);
  TG_GRADCHECK_NULL (block, "w1", &nb, &c, &h, &w, &f, x, w1, w2, y);
}

int
main (void)
{
  run (3, 4, 9, 11, 8, 1);
  run (2, 2, 4, 3, 3, 10);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  samples: 2 stages run one iteration of their loop over n at a time; 1 temporary of one iteration each\n  samples: 6 stages run one iteration of their loop over n at a time; 4 temporaries of one iteration each\n" } } */
/* { dg-final { scan-tensorgrad-backward "\n  tensor hid.col: float, temporary, size max \\(w, 0\\) \\* \\(max \\(h, 0\\) \\* \\(9 \\* max \\(f, 0\\)\\)\\) \\+ max \\(f, 0\\) \\* 144\n" } } */
/* { dg-final { scan-tensorgrad-backward "\n  stage \[0-9\]+: for \\(blas\\) \\(group 2\\) n < nb, o < f, kk < 9 \\* max \\(c, 0\\)" } } */
/* { dg-final { scan-tensorgrad-backward "\n  tensor d3: float, temporary, size " } } */
/* { dg-final { scan-tensorgrad-backward-not "\n  tensor d3: float, temporary, size max \\(nb, 0\\)" } } */
