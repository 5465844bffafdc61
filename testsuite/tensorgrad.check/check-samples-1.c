/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-sizes=conv:nb=2,c=2,h=3,w=3,f=2 -fplugin-arg-tensorgrad-dump" } */
/* The interpreter runs a group of stages (te_stage.group, samples.c) one
   iteration of their shared loop at a time, as the back ends do: a
   padded 3 x 3 convolution's gradient, whose products (tiled, without a
   CBLAS), col2im and im2col run sample by sample through temporaries of
   one sample, each zeroed again for the next, is checked against finite
   differences at 2 samples.  Run stage after stage, the second sample's product
   would add to the first's d_x.col.  */

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const double *x, const double *wt, /* { dg-message "gradient of .conv. checked at nb=2, c=2, h=3, w=3, f=2: worst relative error \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_wt., \[0-9.e+-\]+ in .d_b." } */
      const double *b, double *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    double acc = b[o];
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

/* { dg-final { scan-tensorgrad-dump "\n  samples: 3 stages run one iteration of their loop over n at a time; 2 temporaries of one iteration each\n" } } */
/* { dg-final { scan-tensorgrad-backward "\n  stage \[0-9\]+: for \\(group 1\\) n < nb, r < \[^\n\]*:\n    d_x.col\\\[r\\\] = 0;\n" } } */
