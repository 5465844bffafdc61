/* { dg-do run } */
/* A min reduction through a compare-and-assign along the rows of an
   n x m matrix (5 x 4 at run time), initialised from a constant:
   double mn = INFINITY; for (j < m) if (x[i*m+j] < mn) mn = x[i*m+j];
   y[i] = mn.  d_x[i*m+a] += d_y[i] where a is the first minimal element
   of row i (the constant initial value gets no adjoint).  Away from ties
   checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  Then ties, exactly:
   row 0 with equal minima at j = 0 and j = 3, row 2 at j = 1 and j = 2;
   only the first one gets d_y[i], every other d_x keeps its value.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rowmin (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mn = INFINITY;
      for (int j = 0; j < m; j++)
	if (x[i * m + j] < mn)
	  mn = x[i * m + j];
      y[i] = mn;
    }
}

struct ctx
{
  int n, m;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  rowmin (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 5, m = 4, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, nm, 3, -1, 1);

  rowmin (n, m, x, y);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, n), *d_y = tg_dup (c, n);
  double *pre = tg_dup (d_x, nm);

  rowmin_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g, TG_RTOL, TG_ATOL);

  /* Ties.  */
  x[0 * m + 0] = x[0 * m + 3] = -2.5;
  x[2 * m + 1] = x[2 * m + 2] = -2.25;
  rowmin (n, m, x, y);
  memcpy (d_x, pre, nm * sizeof *d_x);
  rowmin_grad (n, m, x, y, d_x, d_y);
  for (int i = 0; i < n; i++)
    {
      int a = 0;
      for (int j = 1; j < m; j++)
	if (x[i * m + j] < x[i * m + a])
	  a = j;
      if (i == 0 || i == 2)
        CHECK_AT (a == (i == 2), i);
      for (int j = 0; j < m; j++)
	CHECK_AT (d_x[i * m + j]
		  == (j == a ? pre[i * m + j] + d_y[i] : pre[i * m + j]),
		  i * m + j);
    }
  return tg_exit ();
}
