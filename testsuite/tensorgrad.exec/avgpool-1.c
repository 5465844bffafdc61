/* { dg-do run } */
/* Average pooling 2 x 2, stride 2, over nc = 2 channels of h x w = 7 x 5
   at run time, output oh x ow = 3 x 2 (passed as parameters; row 6 and
   column 4 fall in no window and get nothing):
   double s = 0; for (r < 2) for (q < 2)
   s += x[(c*h + 2*oy+r)*w + 2*ox+q]; y[(c*oh+oy)*ow+ox] = 0.25 * s.
   d_x[(c*h + 2*oy+r)*w + 2*ox+q] += 0.25 d_y.  Checks every d_x against
   central differences, accumulation into a pre-filled d_x, and that x,
   y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
avgpool2 (int nc, int h, int w, int oh, int ow, const double *x, double *y)
{
  for (int c = 0; c < nc; c++)
    for (int oy = 0; oy < oh; oy++)
      for (int ox = 0; ox < ow; ox++)
	{
	  double s = 0;
	  for (int r = 0; r < 2; r++)
	    for (int q = 0; q < 2; q++)
	      s += x[(c * h + 2 * oy + r) * w + 2 * ox + q];
	  y[(c * oh + oy) * ow + ox] = 0.25 * s;
	}
}

struct ctx
{
  int nc, h, w, oh, ow;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  avgpool2 (t->nc, t->h, t->w, t->oh, t->ow, t->x, t->y);
  return tg_dot (t->c, t->y, t->nc * t->oh * t->ow);
}

int
main (void)
{
  int nc = 2, h = 7, w = 5, oh = 3, ow = 2, nx = nc * h * w;
  int ny = nc * oh * ow;
  double *x = tg_alloc (nx), *y = tg_alloc (ny), *c = tg_alloc (ny);
  double *d_x = tg_alloc (nx), *g = tg_alloc (nx);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (c, ny, 2, -1, 1);
  tg_fill (d_x, nx, 3, -1, 1);

  avgpool2 (nc, h, w, oh, ow, x, y);
  double *x0 = tg_dup (x, nx), *y0 = tg_dup (y, ny), *d_y = tg_dup (c, ny);
  double *pre = tg_dup (d_x, nx);

  avgpool2_grad (nc, h, w, oh, ow, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  tg_sub (g, d_x, pre, nx);
  struct ctx t = { nc, h, w, oh, ow, x, y, c };
  tg_fd_check ("x", x, nx, loss, &t, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
