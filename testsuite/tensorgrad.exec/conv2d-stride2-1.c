/* { dg-do run } */
/* A 2-D convolution (cross-correlation), NCHW, stride 2, no padding:
   nb = 2 images of ci = 2 input channels, h x w = 7 x 6, co = 3 output
   channels, filters 3 x 3, output oh x ow = 3 x 2 (passed as
   parameters), a bias per output channel; every size at run time:
   y[i][o][oy][ox] = b[o]
		     + sum_{c,r,s} x[i][c][2*oy+r][2*ox+s] f[o][c][r][s],
   flat-indexed.  Windows overlap by one row/column; the last column of
   x (ix = 5) is read by no window and must get exactly nothing.
   d_x[i][c][2*oy+r][2*ox+s] += d_y f[o][c][r][s];
   d_f[o][c][r][s] += sum_{i,oy,ox} d_y x[...]; d_b[o] += sum d_y.
   TG_GRADCHECK checks every d_x (up to the last one a window reads), d_f
   and d_b against central differences, accumulation into the shadows, and
   that x, f, b, y, d_y are untouched; then that column 5 of d_x gets
   exactly nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv2d_s2 (int nb, int ci, int h, int w, int co, int kh, int kw, int oh,
           int ow, const double *x, const double *f, const double *b,
           double *y)
{
  for (int i = 0; i < nb; i++)
    for (int o = 0; o < co; o++)
      for (int oy = 0; oy < oh; oy++)
	for (int ox = 0; ox < ow; ox++)
	  {
	    double acc = b[o];
	    for (int c = 0; c < ci; c++)
	      for (int r = 0; r < kh; r++)
		for (int s = 0; s < kw; s++)
		acc += x[((i * ci + c) * h + 2 * oy + r) * w + 2 * ox + s]
		       * f[((o * ci + c) * kh + r) * kw + s];
	    y[((i * co + o) * oh + oy) * ow + ox] = acc;
	  }
}

int
main (void)
{
  int nb = 2, ci = 2, h = 7, w = 6, co = 3;
  int kh = 3, kw = 3, oh = 3, ow = 2;
  int nx = nb * ci * h * w, nf = co * ci * kh * kw, ny = nb * co * oh * ow;
  double *x = tg_alloc (nx), *f = tg_alloc (nf), *b = tg_alloc (co);
  double *y = tg_alloc (ny);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (f, nf, 2, -1, 1);
  tg_fill (b, co, 3, -1, 1);
  TG_GRADCHECK (conv2d_s2, &nb, &ci, &h, &w, &co, &kh, &kw, &oh, &ow, x, f,
		b, y);

  /* The descriptor covers x up to the last element a window reads; the
     very last one, in column 5, lies past it: it gets exactly nothing, as
     column 5 of every row does.  */
  double *d_x = tg_alloc (nx), *d_f = tg_alloc (nf), *d_b = tg_alloc (co);
  double *d_y = tg_alloc (ny);
  for (int i = 0; i < ny; i++)
    d_y[i] = 1;
  conv2d_s2 (nb, ci, h, w, co, kh, kw, oh, ow, x, f, b, y);
  conv2d_s2_grad (nb, ci, h, w, co, kh, kw, oh, ow, x, f, b, y, d_x, d_f,
		  d_b, d_y);
  for (int i = w - 1; i < nx; i += w)
    CHECK_AT (d_x[i] == 0, i);
  return tg_exit ();
}
