/* { dg-do run } */
/* A max reduction through a compare-and-assign down the columns of an
   n x m matrix (5 x 3 at run time):
   double mx = x[j]; for (i = 1; i < n; i++) if (x[i*m+j] > mx)
   mx = x[i*m+j]; y[j] = mx.  d_x[a*m+j] += d_y[j] where a is the first
   maximal row of column j.  Away from ties TG_GRADCHECK checks every d_x
   against central differences, accumulation into a pre-filled d_x, and that
   x, y, d_y are untouched.  Then ties, exactly: column 1 with equal maxima
   in rows 1 and 4, column 2 in rows 0 and 3; only the first one gets
   d_y[j], every other d_x keeps its value.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
colmax (int n, int m, const double *x, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double mx = x[j];
      for (int i = 1; i < n; i++)
	if (x[i * m + j] > mx)
	  mx = x[i * m + j];
      y[j] = mx;
    }
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (m);
  tg_fill (x, nm, 1, -2, 2);
  TG_GRADCHECK (colmax, &n, &m, x, y);

  /* Ties.  */
  double *d_y = tg_alloc (m), *pre = tg_alloc (nm), *d_x = tg_alloc (nm);
  tg_fill (d_y, m, 2, -1, 1);
  tg_fill (pre, nm, 3, -1, 1);
  memcpy (d_x, pre, nm * sizeof *d_x);
  x[1 * m + 1] = x[4 * m + 1] = 2.5;
  x[0 * m + 2] = x[3 * m + 2] = 2.25;
  colmax (n, m, x, y);
  colmax_grad (n, m, x, y, d_x, d_y);
  for (int j = 0; j < m; j++)
    {
      int a = 0;
      for (int i = 1; i < n; i++)
	if (x[i * m + j] > x[a * m + j])
	  a = i;
      if (j == 1 || j == 2)
        CHECK_AT (a == (j == 1), j);
      for (int i = 0; i < n; i++)
	CHECK_AT (d_x[i * m + j]
		  == (i == a ? pre[i * m + j] + d_y[j] : pre[i * m + j]),
		  i * m + j);
    }
  return tg_exit ();
}
