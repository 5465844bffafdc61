/* { dg-do run } */
/* Max pooling 2 x 2, stride 2, through fmax from -INFINITY, over nc = 2
   channels of h x w = 7 x 5 at run time, output oh x ow = 3 x 2 (passed
   as parameters; row 6 and column 4 fall in no window):
   double mx = -INFINITY; for (r < 2) for (s < 2)
   mx = fmax (mx, x[(c*h + 2*oy+r)*w + 2*ox+s]); y[(c*oh+oy)*ow+ox] = mx.
   d_x += d_y at the first maximal element of each window (iteration
   order r, s), nothing elsewhere.  Inputs without ties: TG_GRADCHECK checks
   every d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  Then one planted tie, exactly: in
   window (c 1, oy 1, ox 0) the elements (r 0, s 1) and (r 1, s 0) both hold
   the maximum; only (0, 1) gets d_y, and every d_x outside the argmaxes
   keeps its value.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
maxpool2 (int nc, int h, int w, int oh, int ow, const double *x, double *y)
{
  for (int c = 0; c < nc; c++)
    for (int oy = 0; oy < oh; oy++)
      for (int ox = 0; ox < ow; ox++)
	{
	  double mx = -INFINITY;
	  for (int r = 0; r < 2; r++)
	    for (int s = 0; s < 2; s++)
	      mx = fmax (mx, x[(c * h + 2 * oy + r) * w + 2 * ox + s]);
	  y[(c * oh + oy) * ow + ox] = mx;
	}
}

int
main (void)
{
  int nc = 2, h = 7, w = 5, oh = 3, ow = 2, nx = nc * h * w;
  int ny = nc * oh * ow;
  double *x = tg_alloc (nx), *y = tg_alloc (ny);
  tg_fill (x, nx, 1, -2, 2);
  TG_GRADCHECK (maxpool2, &nc, &h, &w, &oh, &ow, x, y);

  /* The planted tie; every element of d_x, also past the last window
     (beyond the descriptor's extent), checked exactly.  */
  double *d_y = tg_alloc (ny), *pre = tg_alloc (nx), *d_x = tg_alloc (nx);
  tg_fill (d_y, ny, 2, -1, 1);
  tg_fill (pre, nx, 3, -1, 1);
  memcpy (d_x, pre, nx * sizeof *d_x);
  int t0 = (1 * h + 2 + 0) * w + 0 + 1, t1 = (1 * h + 2 + 1) * w + 0 + 0;
  x[t0] = x[t1] = 2.5;
  maxpool2 (nc, h, w, oh, ow, x, y);
  maxpool2_grad (nc, h, w, oh, ow, x, y, d_x, d_y);
  double *e = tg_dup (pre, nx);
  for (int ch = 0; ch < nc; ch++)
    for (int oy = 0; oy < oh; oy++)
      for (int ox = 0; ox < ow; ox++)
	{
	  int a = (ch * h + 2 * oy) * w + 2 * ox;
	  for (int r = 0; r < 2; r++)
	    for (int s = 0; s < 2; s++)
	      {
		int q = (ch * h + 2 * oy + r) * w + 2 * ox + s;
		if (x[q] > x[a])
		  a = q;
	      }
	  e[a] = pre[a] + d_y[(ch * oh + oy) * ow + ox];
	}
  CHECK (e[t0] != pre[t0] && e[t1] == pre[t1]);
  for (int q = 0; q < nx; q++)
    CHECK_AT (d_x[q] == e[q], q);
  return tg_exit ();
}
