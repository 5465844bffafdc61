/* { dg-do run } */
/* A 2-D convolution (cross-correlation), NCHW, stride 1, zero padding
   of 1 expressed by a bounds check inside the loop:
   int iy = oy + r - 1, ix = ox + s - 1;
   if (iy >= 0 && iy < h && ix >= 0 && ix < w) acc += x[..iy..ix] f[...];
   nb = 2 images of ci = 2 input channels, h x w = 5 x 4, co = 3 output
   channels, filters 3 x 3, output oh x ow = 5 x 4 (same size, passed as
   parameters), a bias per output channel; every size at run time.
   d_x[i][c][iy][ix] += d_y f[o][c][r][s] for in-bounds taps only;
   d_f[o][c][r][s] += sum over in-bounds taps of d_y x[...];
   d_b[o] += sum d_y.  Checks every d_x, d_f and d_b against central
   differences, accumulation into pre-filled shadows, and that x, f, b,
   y, d_y are untouched.  Checked by hand: the descriptor's extent of x
   counts 85 elements where the kernel reads 80 (the padding guard is not
   taken into account), so tg_gradcheck would read past the array.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv2d_pad (int nb, int ci, int h, int w, int co, int kh, int kw, int oh,
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
		  {
		    int iy = oy + r - 1, ix = ox + s - 1;
		    if (iy >= 0 && iy < h && ix >= 0 && ix < w)
		      acc += x[((i * ci + c) * h + iy) * w + ix]
			     * f[((o * ci + c) * kh + r) * kw + s];
		  }
	    y[((i * co + o) * oh + oy) * ow + ox] = acc;
	  }
}

struct ctx
{
  int nb, ci, h, w, co, kh, kw, oh, ow;
  double *x, *f, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  conv2d_pad (t->nb, t->ci, t->h, t->w, t->co, t->kh, t->kw, t->oh, t->ow,
	      t->x, t->f, t->b, t->y);
  return tg_dot (t->c, t->y, t->nb * t->co * t->oh * t->ow);
}

int
main (void)
{
  int nb = 2, ci = 2, h = 5, w = 4, co = 3;
  int kh = 3, kw = 3, oh = 5, ow = 4;
  int nx = nb * ci * h * w, nf = co * ci * kh * kw, ny = nb * co * oh * ow;
  double *x = tg_alloc (nx), *f = tg_alloc (nf), *b = tg_alloc (co);
  double *y = tg_alloc (ny), *c = tg_alloc (ny);
  double *d_x = tg_alloc (nx), *d_f = tg_alloc (nf), *d_b = tg_alloc (co);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (f, nf, 2, -1, 1);
  tg_fill (b, co, 3, -1, 1);
  tg_fill (c, ny, 4, -1, 1);
  tg_fill (d_x, nx, 5, -1, 1);
  tg_fill (d_f, nf, 6, -1, 1);
  tg_fill (d_b, co, 7, -1, 1);

  conv2d_pad (nb, ci, h, w, co, kh, kw, oh, ow, x, f, b, y);
  double *x0 = tg_dup (x, nx), *f0 = tg_dup (f, nf), *b0 = tg_dup (b, co);
  double *y0 = tg_dup (y, ny), *d_y = tg_dup (c, ny);
  double *pre_x = tg_dup (d_x, nx), *pre_f = tg_dup (d_f, nf);
  double *pre_b = tg_dup (d_b, co);

  conv2d_pad_grad (nb, ci, h, w, co, kh, kw, oh, ow, x, f, b, y, d_x, d_f, d_b,
                   d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (f, f0, nf * sizeof *f);
  CHECK_SAME (b, b0, co * sizeof *b);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  double *g_x = tg_alloc (nx), *g_f = tg_alloc (nf), *g_b = tg_alloc (co);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_f, d_f, pre_f, nf);
  tg_sub (g_b, d_b, pre_b, co);
  struct ctx t = { nb, ci, h, w, co, kh, kw, oh, ow, x, f, b, y, c };
  tg_fd_check ("x", x, nx, loss, &t, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("f", f, nf, loss, &t, g_f, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, co, loss, &t, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
