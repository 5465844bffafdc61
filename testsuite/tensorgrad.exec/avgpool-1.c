/* { dg-do run } */
/* Average pooling 2 x 2, stride 2, over nc = 2 channels of h x w = 7 x 5
   at run time, output oh x ow = 3 x 2 (passed as parameters; row 6 and
   column 4 fall in no window and get nothing):
   double s = 0; for (r < 2) for (q < 2)
   s += x[(c*h + 2*oy+r)*w + 2*ox+q]; y[(c*oh+oy)*ow+ox] = 0.25 * s.
   d_x[(c*h + 2*oy+r)*w + 2*ox+q] += 0.25 d_y.  TG_GRADCHECK checks every
   d_x up to the last one a window reads against central differences,
   accumulation into d_x, and that x, y, d_y are untouched; then that the
   rest of the last row gets nothing.  */

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

int
main (void)
{
  int nc = 2, h = 7, w = 5, oh = 3, ow = 2, nx = nc * h * w;
  int ny = nc * oh * ow;
  double *x = tg_alloc (nx), *y = tg_alloc (ny);
  tg_fill (x, nx, 1, -2, 2);
  TG_GRADCHECK (avgpool2, &nc, &h, &w, &oh, &ow, x, y);

  /* tg_gradcheck covers x up to the last element a window reads,
     x[(1*h + 5)*w + 3]; past it, the rest of the last row gets nothing.  */
  double *d_x = tg_alloc (nx), *d_y = tg_alloc (ny);
  for (int i = 0; i < ny; i++)
    d_y[i] = 1;
  avgpool2 (nc, h, w, oh, ow, x, y);
  avgpool2_grad (nc, h, w, oh, ow, x, y, d_x, d_y);
  for (int i = (1 * h + 5) * w + 4; i < nx; i++)
    CHECK_AT (d_x[i] == 0, i);
  return tg_exit ();
}
