/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-winograd -fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=winograd-tiled-1.gen.c -I." } */
/* { dg-additional-sources "winograd-tiled-1-aux.c" } */
/* -fplugin-arg-tensorgrad-winograd without blas (lib/passes/winograd.c):
   libtensorgrad's tg_conv3x3 gets the object's tiled product behind a
   CBLAS-like function (plugin/tiled.cc's tiled_gemm_adapter,
   tensorgrad.wgemm.f32), for the gradient and, with tiled-forward, for
   the kernel's own nest: no CBLAS linked.

     conv (float, a batch, a bias): 2x3x9x7 into 5 filters (a last tile
       half outside), 2x8x16x16 into 8;
     one (double, one image, no bias, its rows from element OFF):
       4x6x5 into 3.

   Each forward against its loops compiled without the plugin; every
   gradient against central differences, with NULL shadows; the dump-c
   file's gradient (its tg_wgemm_f32, winograd-tiled-1-aux.c) against the
   injected one, within the tiled product's other vector widths.  */

#include <float.h>
#include "tg-test.h"

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

void conv_grad (int, int, int, int, int, const float *, const float *,
		const float *, float *, float *, float *, float *, float *);
void conv_grad_c (int, int, int, int, int, const float *, const float *,
		  const float *, float *, float *, float *, float *, float *);

static void
run_conv (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *ref = tg_alloc_f (ny), *dy = tg_alloc_f (ny);
  float *g[2][3];
  for (int v = 0; v < 2; v++)
    {
      g[v][0] = tg_alloc_f (nx);
      g[v][1] = tg_alloc_f (nw);
      g[v][2] = tg_alloc_f (f);
    }
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  tg_fill_f (dy, ny, seed + 3, -1, 1);
  conv (nb, c, h, w, f, x, wt, b, y);
  conv_loops (nb, c, h, w, f, x, wt, b, ref);
  for (int e = 0; e < ny; e++)
    CHECK_NEAR_AT (y[e], ref[e], 0, 8.0 * (9 * c + 8) * FLT_EPSILON, e);
  conv_grad (nb, c, h, w, f, x, wt, b, y, g[0][0], g[0][1], g[0][2], dy);
  conv_grad_c (nb, c, h, w, f, x, wt, b, y, g[1][0], g[1][1], g[1][2], dy);
  int n3[3] = { nx, nw, f };
  for (int s = 0; s < 3; s++)
    for (int e = 0; e < n3[s]; e++)
      CHECK_NEAR_AT (g[1][s][e], g[0][s][e], 0,
		     8.0 * (f * 9 + nb * h * w) * FLT_EPSILON, e);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt b", &nb, &c, &h, &w, &f, x, wt, b, y);
  free (x), free (wt), free (b), free (y), free (ref), free (dy);
  for (int v = 0; v < 2; v++)
    for (int s = 0; s < 3; s++)
      free (g[v][s]);
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
  one (c, h, w, f, off, img, k, out);
  one_loops (c, h, w, f, off, img, k, oref);
  for (int e = 0; e < no; e++)
    CHECK_NEAR_AT (out[e], oref[e], 0, 8.0 * (9 * c + 8) * DBL_EPSILON, e);
  TG_GRADCHECK (one, &c, &h, &w, &f, &off, img, k, out);
  free (img), free (k), free (out), free (oref);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\n  winograd: the convolution writing y is a call of tg_conv3x3_f32\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 47\\): y = a 3x3 convolution of x by wt \\+ b as tg_conv3x3_f32\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 80\\): out = a 3x3 convolution of img by k as tg_conv3x3_nobias_f64\n" } } */
/* { dg-final { scan-tensorgrad-file "winograd-tiled-1.gen.c" "tg_conv3x3_f32_grad \\(nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y,\n *tg_wgemm_f32\\);" } } */
