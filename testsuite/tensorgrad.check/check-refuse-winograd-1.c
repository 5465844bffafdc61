/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-winograd -fplugin-arg-tensorgrad-check-sizes=conv5:c=1,h=3,w=4,f=2" } */
/* With winograd, a 3x3 convolution's gradient is a call of libtensorgrad
   (lib/passes/winograd.c), which the check's interpreter does not run:
   it is not checked, and a note says why.  The same kernel with a 5x5
   filter keeps its loops and is checked.  */

__attribute__ ((differentiable))
void
conv3 (int c, int h, int w, int f, const float *x, const float *wt, /* { dg-message "gradient of .conv3. not checked: option winograd makes it call libtensorgrad.s .tg_conv3x3_f32. and .tg_conv3x3_f32_grad., which the interpreter does not run" } */
       const float *b, float *y)
{
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
		    acc += x[(ci * h + ih) * w + iw]
			   * wt[((o * c + ci) * 3 + kh) * 3 + kw];
		}
	  y[(o * h + oh) * w + ow] = acc;
	}
}

__attribute__ ((differentiable))
void
conv5 (int c, int h, int w, int f, const float *x, const float *wt, /* { dg-message "gradient of .conv5. checked" } */
       float *y)
{
  for (int o = 0; o < f; o++)
    for (int oh = 0; oh < h; oh++)
      for (int ow = 0; ow < w; ow++)
	{
	  float acc = 0.0f;
	  for (int ci = 0; ci < c; ci++)
	    for (int kh = 0; kh < 5; kh++)
	      for (int kw = 0; kw < 5; kw++)
		{
		  int ih = oh + kh - 2, iw = ow + kw - 2;
		  if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		    acc += x[(ci * h + ih) * w + iw]
			   * wt[((o * c + ci) * 5 + kh) * 5 + kw];
		}
	  y[(o * h + oh) * w + ow] = acc;
	}
}
