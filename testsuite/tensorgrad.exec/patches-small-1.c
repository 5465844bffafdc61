/* { dg-do run } */
/* Convolutions whose gradient keeps its loops (patches.c): one with
   constant sizes too small for products (2 filters of 1 channel, 3 x 3,
   over 6 x 6: M N K = 2 x 9 x 36 = 648, below tiled.h's 32768), and a
   1 x 1 convolution (no window: x[n][ci][oh][ow] wt[o][ci] is a
   product already, with no patches to pack).  Double.
   small: y[o][oh][ow] = sum over kh, kw in bounds of
   x[oh+kh-1][ow+kw-1] wt[o][kh][kw]; pointwise: y[n][o][p] = sum over
   ci of x[n][ci][p] wt[o][ci].  Every component against central
   differences, also with d_x and d_wt NULL (small's by hand, written
   when -O2 gave it no descriptor; range-test-1.c checks that it has
   one now).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
small (const double *x, const double *wt, double *y)
{
  for (int o = 0; o < 2; o++)
    for (int oh = 0; oh < 6; oh++)
      for (int ow = 0; ow < 6; ow++)
	{
	  double acc = 0;
	  for (int kh = 0; kh < 3; kh++)
	    for (int kw = 0; kw < 3; kw++)
	      {
		int ih = oh + kh - 1, iw = ow + kw - 1;
		if (ih >= 0 && ih < 6 && iw >= 0 && iw < 6)
		  acc += x[ih * 6 + iw] * wt[(o * 3 + kh) * 3 + kw];
	      }
	  y[(o * 6 + oh) * 6 + ow] = acc;
	}
}

__attribute__ ((differentiable))
void
pointwise (int nb, int c, int np, int f, const double *x, const double *wt,
	   double *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int p = 0; p < np; p++)
	{
	  double acc = 0;
	  for (int ci = 0; ci < c; ci++)
	    acc += x[(n * c + ci) * np + p] * wt[o * c + ci];
	  y[(n * f + o) * np + p] = acc;
	}
}

void small_grad (const double *, const double *, double *, double *,
		 double *, double *);

static double *sx, *sw, *sy, *sc;

static double
small_loss (void *unused)
{
  (void) unused;
  small (sx, sw, sy);
  return tg_dot (sc, sy, 72);
}

int
main (void)
{
  double *x = tg_alloc (36), *wt = tg_alloc (18), *y = tg_alloc (72);
  double *cy = tg_alloc (72), *d_x = tg_alloc (36), *d_wt = tg_alloc (18);
  tg_fill (x, 36, 1, -1, 1);
  tg_fill (wt, 18, 2, -1, 1);
  tg_fill (cy, 72, 5, -1, 1);
  sx = x, sw = wt, sy = y, sc = cy;
  small (x, wt, y);
  small_grad (x, wt, y, d_x, d_wt, cy);
  tg_fd_check ("d_x", x, 36, small_loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("d_wt", wt, 18, small_loss, NULL, d_wt, TG_RTOL, TG_ATOL);
  double *e_x = tg_alloc (36);
  small_grad (x, wt, y, e_x, NULL, cy);
  for (int i = 0; i < 36; i++)
    CHECK (e_x[i] == d_x[i]);
  int nb = 2, c = 5, np = 70, f = 8;
  double *px = tg_alloc (nb * c * np), *pw = tg_alloc (f * c);
  double *py = tg_alloc (nb * f * np);
  tg_fill (px, nb * c * np, 3, -1, 1);
  tg_fill (pw, f * c, 4, -1, 1);
  TG_GRADCHECK (pointwise, &nb, &c, &np, &f, px, pw, py);
  TG_GRADCHECK_NULL (pointwise, "x", &nb, &c, &np, &f, px, pw, py);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-not "\n  patches: " } } */
