/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=tiled-dump-c-2.gen.c -fplugin-arg-tensorgrad-dump -I. -Wl,--wrap=malloc" } */
/* { dg-additional-sources "tiled-dump-c-2-aux.c" } */
/* The set form of the tiled product (lib/back/tiled.h: SET nonzero, C =
   alpha * tile in the first block of terms) in dump-c's C and in the
   injected gradient: a padded 3 x 3 convolution's d_x.col[n] = wt^T
   d_y[n] (c 9 by h w over f) fills a local array that nothing wrote
   before and is not zeroed (lower.c step 6c); tiled-dump-c-2-aux.c
   compiles the dump-c file (the gradients renamed conv_d_grad_c,
   conv_f_grad_c), and this test checks that it computes exactly what
   the injected gradient does, in whichever version the ifunc takes
   (the default one or a wide one with fused multiply-adds, whose set
   form is a plain multiply).  The link wraps malloc to fill every block
   with NaNs, so an element of d_x.col added to before it was set shows
   in d_x.  Sizes: double 2 x 3 x 5 x 6 into 70 filters (27 x 30 x 70:
   two blocks of terms, the second adding to the first; edge tiles),
   float 1 x 5 x 6 x 6 into 66 filters (45 x 36 x 66), and small ones
   (the loops); every gradient also against central differences.  */

#include <string.h>
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

CONV (conv_d, double)
CONV (conv_f, float)

void conv_d_grad_c (int, int, int, int, int, const double *, const double *,
		    const double *, double *, double *, double *, double *,
		    double *);
void conv_f_grad_c (int, int, int, int, int, const float *, const float *,
		    const float *, float *, float *, float *, float *,
		    float *);

static void
run_d (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  double *x = tg_alloc (nx), *wt = tg_alloc (nw), *b = tg_alloc (f);
  double *y = tg_alloc (ny), *dy = tg_alloc (ny);
  double *dx[2] = { tg_alloc (nx), tg_alloc (nx) };
  double *dw[2] = { tg_alloc (nw), tg_alloc (nw) };
  double *db[2] = { tg_alloc (f), tg_alloc (f) };
  tg_fill (x, nx, seed, -1, 1);
  tg_fill (wt, nw, seed + 1, -1, 1);
  tg_fill (b, f, seed + 2, -1, 1);
  tg_fill (dy, ny, seed + 3, -1, 1);
  TG_GRADCHECK (conv_d, &nb, &c, &h, &w, &f, x, wt, b, y);
  for (int v = 0; v < 2; v++)
    {
      tg_fill (dx[v], nx, seed + 4, -1, 1);
      tg_fill (dw[v], nw, seed + 5, -1, 1);
      tg_fill (db[v], f, seed + 6, -1, 1);
    }
  conv_d_grad (nb, c, h, w, f, x, wt, b, y, dx[0], dw[0], db[0], dy);
  conv_d_grad_c (nb, c, h, w, f, x, wt, b, y, dx[1], dw[1], db[1], dy);
  for (int i = 0; i < nx; i++)
    CHECK (dx[0][i] == dx[0][i]);
  CHECK (memcmp (dx[0], dx[1], sizeof (double) * nx) == 0);
  CHECK (memcmp (dw[0], dw[1], sizeof (double) * nw) == 0);
  CHECK (memcmp (db[0], db[1], sizeof (double) * f) == 0);
}

static void
run_f (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *dy = tg_alloc_f (ny);
  float *dx[2] = { tg_alloc_f (nx), tg_alloc_f (nx) };
  float *dw[2] = { tg_alloc_f (nw), tg_alloc_f (nw) };
  float *db[2] = { tg_alloc_f (f), tg_alloc_f (f) };
  tg_fill_f (x, nx, seed, -1, 1);
  tg_fill_f (wt, nw, seed + 1, -1, 1);
  tg_fill_f (b, f, seed + 2, -1, 1);
  tg_fill_f (dy, ny, seed + 3, -1, 1);
  TG_GRADCHECK (conv_f, &nb, &c, &h, &w, &f, x, wt, b, y);
  for (int v = 0; v < 2; v++)
    {
      tg_fill_f (dx[v], nx, seed + 4, -1, 1);
      tg_fill_f (dw[v], nw, seed + 5, -1, 1);
      tg_fill_f (db[v], f, seed + 6, -1, 1);
    }
  conv_f_grad (nb, c, h, w, f, x, wt, b, y, dx[0], dw[0], db[0], dy);
  conv_f_grad_c (nb, c, h, w, f, x, wt, b, y, dx[1], dw[1], db[1], dy);
  for (int i = 0; i < nx; i++)
    CHECK (dx[0][i] == dx[0][i]);
  CHECK (memcmp (dx[0], dx[1], sizeof (float) * nx) == 0);
  CHECK (memcmp (dw[0], dw[1], sizeof (float) * nw) == 0);
  CHECK (memcmp (db[0], db[1], sizeof (float) * f) == 0);
}

int
main (void)
{
  run_d (2, 3, 5, 6, 70, 1);
  run_d (1, 1, 3, 5, 2, 10);
  run_f (1, 5, 6, 6, 66, 20);
  run_f (2, 2, 4, 3, 3, 30);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x.col = wt\\^T \\* d_y as tiled \\(9 \\* max \\(c, 0\\), max \\(h, 0\\) \\* max \\(w, 0\\), f\\) in a loop over n\nlower: stage \[0-9\]+: the product fills 'd_x.col', not zeroed\n" } } */
/* { dg-final { scan-tensorgrad-file "tiled-dump-c-2.gen.c" "long ldc,\n  long set\\)" } } */
