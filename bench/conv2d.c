/* conv2d.c -- 2-D convolution, NCHW, 3x3 filters, stride 1, zero padding 1
   expressed by bounds checks inside the loop, with a bias per filter.
   float as in ML code.

   x[nb][c][h][w], wt[f][c][3][3], b[f] -> y[nb][f][h][w].
   Benchmark size: nb = 8, c = 32, h = w = 32, f = 32.
   Gradient (ABI): conv2d_grad (nb, c, h, w, f, x, wt, b, y,
				d_x, d_wt, d_b, d_y).  */

__attribute__((differentiable))
void
conv2d (int nb, int c, int h, int w, int f, const float *x, const float *wt,
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
