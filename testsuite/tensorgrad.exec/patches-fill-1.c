/* { dg-do run } */
/* Without a CBLAS, the tiled product into a padded 3 x 3 convolution's
   d_x.col (d_x.col[n] = wt^T d_y[n], c 9 by h w over f) fills the
   array, which nothing wrote before: it is allocated without zeroing
   (lower.c step 6c), and zeroed before the tiled product or the loops
   add into it; with d_y NULL (a zero adjoint) nothing adds, and col2im
   adds the zeros into d_x (over the patches where the padding's tests
   hold).  d_wt[o][kk] += d_y[n] x.col[n]^T, d_b[o] += sum d_y[n][o].
   The link wraps malloc to fill every block with NaNs, so an element
   read before it is written shows in d_x.  Sizes where both products
   pass tiled.h's test (2 samples of 4 channels of 11 x 13 into 8
   filters: 36 x 143 x 8 and 8 x 36 x 143) and small ones (the loops),
   float and double, one sample; every component against central
   differences, also with d_x, d_wt or d_y NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc" } */

#include "tg-test.h"
#include "poison-malloc.h"

#define CONV(NAME, T)							\
  __attribute__ ((differentiable)) void					\
  NAME (int nb, int c, int h, int w, int f, const T *x, const T *wt,	\
	const T *b, T *y)						\
  {									\
    for (int n = 0; n < nb; n++)					\
      for (int o = 0; o < f; o++)					\
	for (int oh = 0; oh < h; oh++)					\
	  for (int ow = 0; ow < w; ow++)				\
	    {								\
	      T acc = b[o];						\
	      for (int ci = 0; ci < c; ci++)				\
		for (int kh = 0; kh < 3; kh++)				\
		  for (int kw = 0; kw < 3; kw++)			\
		    {							\
		      int ih = oh + kh - 1, iw = ow + kw - 1;		\
		      if (ih >= 0 && ih < h && iw >= 0 && iw < w)	\
			acc += x[((n * c + ci) * h + ih) * w + iw]	\
			       * wt[((o * c + ci) * 3 + kh) * 3 + kw];	\
		    }							\
	      y[((n * f + o) * h + oh) * w + ow] = acc;			\
	    }								\
  }

CONV (conv_f, float)
CONV (conv_d, double)

void conv_f_grad (int, int, int, int, int, const float *, const float *,
		  const float *, float *, float *, float *, float *, float *);

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *d_x = tg_alloc_f (nx), *d_wt = tg_alloc_f (nw);
  float *d_b = tg_alloc_f (f);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  TG_GRADCHECK (conv_f, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "y", &nb, &c, &h, &w, &f, x, wt, b, y);
  conv_f (nb, c, h, w, f, x, wt, b, y);
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, NULL);
  for (int i = 0; i < nx; i++)
    CHECK (d_x[i] == 0);

  double *xd = tg_alloc (nx), *wd = tg_alloc (nw), *bd = tg_alloc (f);
  double *yd = tg_alloc (ny);
  tg_fill (xd, nx, seed + 4, -1, 1);
  tg_fill (wd, nw, seed + 5, -1, 1);
  tg_fill (bd, f, seed + 6, -1, 1);
  TG_GRADCHECK (conv_d, &nb, &c, &h, &w, &f, xd, wd, bd, yd);
  TG_GRADCHECK_NULL (conv_d, "x", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
  TG_GRADCHECK_NULL (conv_d, "wt", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
  TG_GRADCHECK_NULL (conv_d, "y", &nb, &c, &h, &w, &f, xd, wd, bd, yd);
}

int
main (void)
{
  run (2, 4, 11, 13, 8, 1);
  run (1, 1, 3, 5, 2, 10);
  run (3, 2, 4, 3, 3, 20);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\nlower: stage \[0-9\]+: the product fills 'd_x.col', not zeroed\n" } } */
/* { dg-final { scan-tensorgrad-dump-not "the product fills 'x.col'" } } */
