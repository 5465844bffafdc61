/* { dg-do run } */
/* A 2-D convolution (cross-correlation), NCHW, stride 1, no padding:
   nb = 2 images of ci = 2 input channels, h x w = 5 x 4, co = 3 output
   channels, filters kh x kw = 3 x 2, output oh x ow = 3 x 3 (passed as
   parameters), a bias per output channel; every size at run time:
   y[i][o][oy][ox] = b[o] + sum_{c,r,s} x[i][c][oy+r][ox+s] f[o][c][r][s],
   flat-indexed.  d_x[i][c][oy+r][ox+s] += d_y f[o][c][r][s];
   d_f[o][c][r][s] += sum_{i,oy,ox} d_y x[...]; d_b[o] += sum d_y.
   TG_GRADCHECK checks every d_x, d_f and d_b against central differences,
   accumulation into pre-filled shadows, and that x, f, b, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv2d (int nb, int ci, int h, int w, int co, int kh, int kw, int oh,
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
		acc += x[((i * ci + c) * h + oy + r) * w + ox + s]
		       * f[((o * ci + c) * kh + r) * kw + s];
	    y[((i * co + o) * oh + oy) * ow + ox] = acc;
	  }
}

int
main (void)
{
  int nb = 2, ci = 2, h = 5, w = 4, co = 3;
  int kh = 3, kw = 2, oh = 3, ow = 3;
  int nx = nb * ci * h * w, nf = co * ci * kh * kw, ny = nb * co * oh * ow;
  double *x = tg_alloc (nx), *f = tg_alloc (nf), *b = tg_alloc (co);
  double *y = tg_alloc (ny);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (f, nf, 2, -1, 1);
  tg_fill (b, co, 3, -1, 1);
  TG_GRADCHECK (conv2d, &nb, &ci, &h, &w, &co, &kh, &kw, &oh, &ow, x, f, b,
		y);
  return tg_exit ();
}
