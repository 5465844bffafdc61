/* conv2d_ref.c -- hand-written backward of conv2d.c, same signature as the
   generated conv2d_grad.

   Written as an expert would without -ffast-math: the padding is handled
   by clipping the loop ranges per filter tap (kh, kw) instead of testing
   bounds per element, so the inner loops over a row are unit-stride
   axpys (d_x) or elementwise products into a row of partial sums (d_wt,
   d_b), which GCC vectorizes; the partial sums are added up once per
   tap.  Compiled with -fopenmp (make bench-parallel), the samples run on
   threads, the filters' taps an OpenMP array reduction.  */

#include <stddef.h>

/* Sample N and filter O's part: their contributions to D_X (sample N's
   planes) and to D_WT (filter O's taps), each may be NULL; T is a row of
   partial sums.  */
static inline void
tap_grads (int n, int o, int c, int h, int w, int f,
	   const float *restrict x, const float *restrict wt,
	   float *restrict d_x, float *restrict d_wt,
	   const float *restrict d_y, float *restrict t)
{
  size_t hw = (size_t) h * w;
  const float *restrict g = d_y + ((size_t) n * f + o) * hw;
  for (int ci = 0; ci < c; ci++)
    {
      const float *restrict xp = x + ((size_t) n * c + ci) * hw;
      float *restrict dxp = d_x ? d_x + ((size_t) n * c + ci) * hw : NULL;
      for (int kh = 0; kh < 3; kh++)
	for (int kw = 0; kw < 3; kw++)
	  {
	    size_t widx = (((size_t) o * c + ci) * 3 + kh) * 3 + kw;
	    /* Output positions whose input ih = oh+kh-1, iw = ow+kw-1
	       is inside the image.  */
	    int oh0 = kh == 0 ? 1 : 0, oh1 = kh == 2 ? h - 1 : h;
	    int ow0 = kw == 0 ? 1 : 0, ow1 = kw == 2 ? w - 1 : w;
	    int sh = kh - 1, sw = kw - 1;
	    if (dxp)
	      {
		float wv = wt[widx];
		for (int oh = oh0; oh < oh1; oh++)
		  {
		    const float *restrict gr = g + (size_t) oh * w;
		    float *restrict dr = dxp + (size_t) (oh + sh) * w + sw;
		    for (int ow = ow0; ow < ow1; ow++)
		      dr[ow] += wv * gr[ow];
		  }
	      }
	    if (d_wt)
	      {
		for (int q = ow0; q < ow1; q++)
		  t[q] = 0.0f;
		for (int oh = oh0; oh < oh1; oh++)
		  {
		    const float *restrict gr = g + (size_t) oh * w;
		    const float *restrict xr = xp + (size_t) (oh + sh) * w + sw;
		    for (int ow = ow0; ow < ow1; ow++)
		      t[ow] += gr[ow] * xr[ow];
		  }
		float s = 0.0f;
		for (int q = ow0; q < ow1; q++)
		  s += t[q];
		d_wt[widx] += s;
	      }
	  }
    }
}

void
conv2d_grad_ref (int nb, int c, int h, int w, int f,
		 const float *restrict x, const float *restrict wt,
		 const float *restrict b, float *restrict y,
		 float *restrict d_x, float *restrict d_wt,
		 float *restrict d_b, float *restrict d_y)
{
  (void) b;
  (void) y;
  if (!d_y)
    return;
  size_t hw = (size_t) h * w;

  if (d_b)
#ifdef _OPENMP
#pragma omp parallel for
#endif
    for (int o = 0; o < f; o++)
      {
	float t[w];		/* a row of partial sums */
	for (int n = 0; n < nb; n++)
	  {
	    const float *restrict g = d_y + ((size_t) n * f + o) * hw;
	    for (int q = 0; q < w; q++)
	      t[q] = 0.0f;
	    for (int oh = 0; oh < h; oh++)
	      for (int q = 0; q < w; q++)
		t[q] += g[(size_t) oh * w + q];
	    float s = 0.0f;
	    for (int q = 0; q < w; q++)
	      s += t[q];
	    d_b[o] += s;
	  }
      }

  /* Each sample's planes of d_x on threads, d_wt an OpenMP array
     reduction, with a row of partial sums per thread.  */
#ifdef _OPENMP
  if (d_wt)
    {
      size_t nw = (size_t) f * c * 9;
#pragma omp parallel for reduction(+ : d_wt[:nw])
      for (int n = 0; n < nb; n++)
	{
	  float tt[w];
	  for (int o = 0; o < f; o++)
	    tap_grads (n, o, c, h, w, f, x, wt, d_x, d_wt, d_y, tt);
	}
      return;
    }
#pragma omp parallel for
#endif
  for (int n = 0; n < nb; n++)
    {
      float tt[w];
      for (int o = 0; o < f; o++)
	tap_grads (n, o, c, h, w, f, x, wt, d_x, d_wt, d_y, tt);
    }
}
