/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-winograd -fplugin-arg-tensorgrad-no-tiled -fplugin-arg-tensorgrad-dump-c=winograd-loops-1.gen.c" } */
/* -fplugin-arg-tensorgrad-winograd with no-tiled and without blas: the
   gradient calls libtensorgrad's tg_conv3x3_nobias_f32_grad with a NULL
   gemm, its products its own loops (lib/runtime/conv3x3.c); the kernel
   keeps its nest (no forward option).  A convolution without a bias over
   one image, its filters from element 2 of their array, 3x5x4 into 2;
   every gradient component against central differences, with NULL
   shadows.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv (int c, int h, int w, int f, const float *x, const float *wt,
      float *y)
{
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
		    acc += wt[2 + ((o * c + ci) * 3 + kh) * 3 + kw]
			   * x[(ci * h + ih) * w + iw];
		}
	  y[(o * h + oh) * w + ow] = acc;
	}
}

int
main (void)
{
  int c = 3, h = 5, w = 4, f = 2;
  float *x = tg_alloc_f (c * h * w), *wt = tg_alloc_f (2 + f * c * 9);
  float *y = tg_alloc_f (f * h * w);
  tg_fill_f (x, c * h * w, 1, -1, 1);
  tg_fill_f (wt, 2 + f * c * 9, 2, -1, 1);
  TG_GRADCHECK (conv, &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv, "x", &c, &h, &w, &f, x, wt, y);
  TG_GRADCHECK_NULL (conv, "wt", &c, &h, &w, &f, x, wt, y);
  free (x), free (wt), free (y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-file "winograd-loops-1.gen.c" "tg_conv3x3_nobias_f32_grad \\(1, c, h, w, f, x, wt \\+ 2, y, d_x,\n *\\(d_wt \\? d_wt \\+ 2 : NULL\\), d_y, NULL\\);" } } */
