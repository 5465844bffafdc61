/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-winograd -fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */
/* -fplugin-arg-tensorgrad-winograd (lib/passes/winograd.c): a 3x3
   convolution (NCHW, stride 1, zero padding 1) becomes a call of
   libtensorgrad's tg_conv3x3 (Winograd's F(2x2, 3x3) on the CBLAS the
   code passes), its gradient a call of the runtime's gradient; with
   blas-forward the kernel's nest becomes the call too (plugin/
   forward.cc).

     conv (float, a batch, a bias; bench/conv2d.c's loops): 2x3x9x7
       into 5 filters (odd sizes: a last tile half outside), 2x8x16x16
       into 8; the forward makes 16 products per image, the gradient 32
       (16 without d_x or without d_wt, none with neither).
     one (double, one image, no bias, the image from element OFF of its
       array): 4x6x5 into 3.
     net (float): a convolution into a local array, relu, and the sum of
       squares returned: the gradient calls the convolution again for the
       local (and the kernel keeps its nest: a local array).
     conv5 (float, 5x5 filters) and selfconv (double, one array as
       the image and the filters): stay as they were.

   Each forward against its loops compiled without the plugin; the CBLAS
   calls counted (blas-calls.h: --wrap also renames the address the code
   passes); every gradient against central differences, with NULL
   shadows too.  */

#include <float.h>
#include "tg-test.h"
#include "blas-calls.h"

#define CONV_BODY                                                             \
  for (int n = 0; n < nb; n++)                                                \
    for (int o = 0; o < f; o++)                                               \
      for (int oh = 0; oh < h; oh++)                                          \
	for (int ow = 0; ow < w; ow++)                                        \
	  {                                                                   \
	    float acc = b[o];                                                 \
	    for (int ci = 0; ci < c; ci++)                                    \
	      for (int kh = 0; kh < 3; kh++)                                  \
		for (int kw = 0; kw < 3; kw++)                                \
		  {                                                           \
		    int ih = oh + kh - 1, iw = ow + kw - 1;                   \
		    if (ih >= 0 && ih < h && iw >= 0 && iw < w)               \
		      acc += x[((n * c + ci) * h + ih) * w + iw]              \
			     * wt[((o * c + ci) * 3 + kh) * 3 + kw];          \
		  }                                                           \
	    y[((n * f + o) * h + oh) * w + ow] = acc;                         \
	  }

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      const float *b, float *y)
{
  CONV_BODY
}

static void
conv_loops (int nb, int c, int h, int w, int f, const float *x,
	    const float *wt, const float *b, float *y)
{
  CONV_BODY
}

#define ONE_BODY                                                              \
  for (int o = 0; o < f; o++)                                                 \
    for (int i = 0; i < h; i++)                                               \
      for (int j = 0; j < w; j++)                                             \
	{                                                                     \
	  double s = 0.0;                                                     \
	  for (int ci = 0; ci < c; ci++)                                      \
	    for (int p = 0; p < 3; p++)                                       \
	      for (int q = 0; q < 3; q++)                                     \
		{                                                             \
		  int u = i + p - 1, v = j + q - 1;                           \
		  if (u >= 0 && u < h && v >= 0 && v < w)                     \
		    s += k[((o * c + ci) * 3 + p) * 3 + q]                    \
			 * img[off + (ci * h + u) * w + v];                   \
		}                                                             \
	  out[(o * h + i) * w + j] = s;                                       \
	}

__attribute__ ((differentiable))
void
one (int c, int h, int w, int f, int off, const double *img, const double *k,
     double *out)
{
  ONE_BODY
}

static void
one_loops (int c, int h, int w, int f, int off, const double *img,
	   const double *k, double *out)
{
  ONE_BODY
}

__attribute__ ((differentiable))
double
net (int nb, int c, int h, int w, int f, const float *x, const float *wt,
     const float *b)
{
  float y[nb * f * h * w];
  CONV_BODY
  double s = 0.0;
  for (int i = 0; i < nb * f * h * w; i++)
    {
      float r = y[i] > 0.0f ? y[i] : 0.0f;
      s += r * r;
    }
  return s;
}

__attribute__ ((differentiable))
void
conv5 (int c, int h, int w, int f, const float *x, const float *wt,
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

/* One array as both the image and the filters: stays loops.  */
__attribute__ ((differentiable))
void
selfconv (int c, int h, int w, int f, const double *x, double *y)
{
  for (int o = 0; o < f; o++)
    for (int oh = 0; oh < h; oh++)
      for (int ow = 0; ow < w; ow++)
	{
	  double acc = 0.0;
	  for (int ci = 0; ci < c; ci++)
	    for (int kh = 0; kh < 3; kh++)
	      for (int kw = 0; kw < 3; kw++)
		{
		  int ih = oh + kh - 1, iw = ow + kw - 1;
		  if (ih >= 0 && ih < h && iw >= 0 && iw < w)
		    acc += x[(ci * h + ih) * w + iw]
			   * x[((o * c + ci) * 3 + kh) * 3 + kw];
		}
	  y[(o * h + oh) * w + ow] = acc;
	}
}

void conv_grad (int, int, int, int, int, const float *, const float *,
		const float *, float *, float *, float *, float *, float *);

static void
run_conv (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *ref = tg_alloc_f (ny), *dy = tg_alloc_f (ny);
  float *dx = tg_alloc_f (nx), *dwt = tg_alloc_f (nw), *db = tg_alloc_f (f);
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  tg_fill_f (dy, ny, seed + 3, -1, 1);
  int before = sgemm_calls;
  conv (nb, c, h, w, f, x, wt, b, y);
  CHECK_AT (sgemm_calls == before + 16 * nb, h);
  conv_loops (nb, c, h, w, f, x, wt, b, ref);
  for (int e = 0; e < ny; e++)
    CHECK_NEAR_AT (y[e], ref[e], 0, 8.0 * (9 * c + 8) * FLT_EPSILON, e);
  /* 32 products per image for d_x and d_wt, 16 for one, none for d_b.  */
  int want[4][3] = { { 1, 1, 1 }, { 0, 1, 1 }, { 1, 0, 1 }, { 0, 0, 1 } };
  for (int k = 0; k < 4; k++)
    {
      before = sgemm_calls;
      conv_grad (nb, c, h, w, f, x, wt, b, y, want[k][0] ? dx : NULL,
		 want[k][1] ? dwt : NULL, want[k][2] ? db : NULL, dy);
      CHECK_AT (sgemm_calls
		== before + 16 * nb * (want[k][0] + want[k][1]), k);
    }
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt b", &nb, &c, &h, &w, &f, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (ref), free (dy);
  free (dx), free (dwt), free (db);
}

int
main (void)
{
  run_conv (2, 3, 9, 7, 5, 1);
  run_conv (2, 8, 16, 16, 8, 10);

  int c = 4, h = 6, w = 5, f = 3, off = 7;
  int ni = off + c * h * w + 3, no = f * h * w;
  double *img = tg_alloc (ni), *k = tg_alloc (f * c * 9);
  double *out = tg_alloc (no), *oref = tg_alloc (no);
  tg_fill (img, ni, 20, -1, 1);
  tg_fill (k, f * c * 9, 21, -1, 1);
  int before = dgemm_calls;
  one (c, h, w, f, off, img, k, out);
  CHECK (dgemm_calls == before + 16);
  one_loops (c, h, w, f, off, img, k, oref);
  for (int e = 0; e < no; e++)
    CHECK_NEAR_AT (out[e], oref[e], 0, 8.0 * (9 * c + 8) * DBL_EPSILON, e);
  TG_GRADCHECK (one, &c, &h, &w, &f, &off, img, k, out);

  int nb = 2, nc = 2, nh = 5, nw = 4, nf = 3;
  float *x = tg_alloc_f (nb * nc * nh * nw), *wt = tg_alloc_f (nf * nc * 9);
  float *b = tg_alloc_f (nf);
  tg_fill_f (x, nb * nc * nh * nw, 30, -1, 1);
  tg_fill_f (wt, nf * nc * 9, 31, -0.5, 0.5);
  tg_fill_f (b, nf, 32, -0.5, 0.5);
  TG_GRADCHECK (net, &nb, &nc, &nh, &nw, &nf, x, wt, b);

  int c5 = 2, h5 = 6, w5 = 7, f5 = 2;
  float *x5 = tg_alloc_f (c5 * h5 * w5), *w5t = tg_alloc_f (f5 * c5 * 25);
  float *y5 = tg_alloc_f (f5 * h5 * w5);
  tg_fill_f (x5, c5 * h5 * w5, 40, -1, 1);
  tg_fill_f (w5t, f5 * c5 * 25, 41, -1, 1);
  TG_GRADCHECK (conv5, &c5, &h5, &w5, &f5, x5, w5t, y5);
  int sc = 2, sh = 3, sw = 4, sf = 1;
  double *sx = tg_alloc (sf * sc * 9 + sc * sh * sw), *sy = tg_alloc (sh * sw);
  tg_fill (sx, sf * sc * 9 + sc * sh * sw, 50, -1, 1);
  TG_GRADCHECK (selfconv, &sc, &sh, &sw, &sf, sx, sy);
  free (img), free (k), free (out), free (oref), free (sx), free (sy);
  free (x), free (wt), free (b), free (x5), free (w5t), free (y5);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  winograd: the convolution writing y is a call of tg_conv3x3_f32\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n    tg_conv3x3_f32_grad \\(nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y\\);\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 55\\): y = a 3x3 convolution of x by wt \\+ b as tg_conv3x3_f32\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  winograd: the convolution writing out is a call of tg_conv3x3_nobias_f64\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n    tg_conv3x3_nobias_f64 \\(1, c, h, w, f, img \\+ off, k, out\\);\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  winograd: the sum writing y stays: not a 3x3 filter\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  winograd: the sum writing y stays: one array in two roles\n" } } */
