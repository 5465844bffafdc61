/* { dg-do run } */
/* A gather with a computed weight: each element scaled by a weight
   looked up through an integer index array (no shadow) with repeats,
   n = 7 elements, nw = 3 weights at run time:
     y[i] = w[idx[i]] * x[i].
   Gradient void wgather_grad (int n, int nw, const int *idx,
   const double *w, const double *x, double *y, double *d_w, double *d_x,
   double *d_y):
     d_w[idx[i]] += d_y[i] x[i]   (a scatter-add: w[1] is used three times,
     w[0] three times, w[2] once);  d_x[i] += d_y[i] w[idx[i]].
   Checks every d_w and d_x against central differences, accumulation
   into pre-filled shadows, and that idx, w, x, y, d_y are untouched.  Checked
   by hand: a gather gets no descriptor (the extents of an array cannot be
   told).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
wgather (int n, int nw, const int *idx, const double *w, const double *x,
	 double *y)
{
  (void) nw;
  for (int i = 0; i < n; i++)
    y[i] = w[idx[i]] * x[i];
}

struct ctx
{
  int n, nw;
  const int *idx;
  double *w, *x, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  wgather (k->n, k->nw, k->idx, k->w, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7, nw = 3;
  int idx[] = { 1, 0, 1, 2, 0, 1, 0 };
  int idx0[] = { 1, 0, 1, 2, 0, 1, 0 };
  double *w = tg_alloc (nw), *x = tg_alloc (n), *y = tg_alloc (n);
  double *cy = tg_alloc (n), *d_w = tg_alloc (nw), *d_x = tg_alloc (n);
  tg_fill (w, nw, 1, -2, 2);
  tg_fill (x, n, 2, -2, 2);
  tg_fill (cy, n, 3, -1, 1);
  tg_fill (d_w, nw, 4, -1, 1);
  tg_fill (d_x, n, 5, -1, 1);

  wgather (n, nw, idx, w, x, y);
  double *w0 = tg_dup (w, nw), *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (cy, n);
  double *pre_w = tg_dup (d_w, nw), *pre_x = tg_dup (d_x, n);

  wgather_grad (n, nw, idx, w, x, y, d_w, d_x, d_y);

  CHECK_SAME (idx, idx0, sizeof idx);
  CHECK_SAME (w, w0, nw * sizeof *w);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_w = tg_alloc (nw), *g_x = tg_alloc (n);
  tg_sub (g_w, d_w, pre_w, nw);
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, nw, idx, w, x, y, cy };
  tg_fd_check ("w", w, nw, loss, &k, g_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
