/* { dg-do run } */
/* A max reduction through fmax along the rows of an n x m matrix (5 x 4
   at run time), initialised from the row's first element:
   double mx = x[i*m]; for (j = 1; j < m; j++) mx = fmax (mx, x[i*m+j]);
   y[i] = mx.  d_x[i*m+a] += d_y[i] where a is the first maximal element
   of row i.  Away from ties TG_GRADCHECK checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  Then ties, exactly: row 1 with equal maxima at j = 1 and j =
   3, row 3 at j = 0 (the initial value) and j = 2; only the first one of
   each row gets d_y[i], every other d_x keeps its value.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rowmax (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
	mx = fmax (mx, x[i * m + j]);
      y[i] = mx;
    }
}

int
main (void)
{
  int n = 5, m = 4, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (n);
  tg_fill (x, nm, 1, -2, 2);
  TG_GRADCHECK (rowmax, &n, &m, x, y);

  /* Ties.  */
  double *d_y = tg_alloc (n), *pre = tg_alloc (nm), *d_x = tg_alloc (nm);
  tg_fill (d_y, n, 2, -1, 1);
  tg_fill (pre, nm, 3, -1, 1);
  memcpy (d_x, pre, nm * sizeof *d_x);
  x[1 * m + 1] = x[1 * m + 3] = 2.5;
  x[3 * m + 0] = x[3 * m + 2] = 2.25;
  rowmax (n, m, x, y);
  rowmax_grad (n, m, x, y, d_x, d_y);
  for (int i = 0; i < n; i++)
    {
      int a = 0;
      for (int j = 1; j < m; j++)
	if (x[i * m + j] > x[i * m + a])
	  a = j;
      if (i == 1 || i == 3)
        CHECK_AT (a == (i == 1), i);
      for (int j = 0; j < m; j++)
	CHECK_AT (d_x[i * m + j]
		  == (j == a ? pre[i * m + j] + d_y[i] : pre[i * m + j]),
		  i * m + j);
    }
  return tg_exit ();
}
