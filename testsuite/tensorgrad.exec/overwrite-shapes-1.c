/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A temporary updated in place by nests of different shapes: a dense
   layer (a call, inlined) writes t over i < n, j < h; a bias is added in
   place over the same nest; tanh is applied in place over one flat loop
   k < n*h.  Each earlier version of t gets an array of its own (the flat
   loop writes the same dense range of n*h elements).  The loss is the
   sum of squares.  Checks d_x, d_W and d_b against central differences
   with pre-filled shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int d, int h, const double *x, const double *W, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double s = 0;
	for (int k = 0; k < d; k++)
	  s += x[i * d + k] * W[k * h + j];
	y[i * h + j] = s;
      }
}

__attribute__ ((differentiable))
double
net (int n, int d, int h, const double *x, const double *W, const double *b)
{
  double t[64];
  dense (n, d, h, x, W, t);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      t[i * h + j] += b[j];
  for (int k = 0; k < n * h; k++)
    t[k] = tanh (t[k]);
  double s = 0;
  for (int k = 0; k < n * h; k++)
    s += t[k] * t[k];
  return s;
}

/* { dg-final { scan-tensorgrad-dump "keeps the values of the earlier one in t.v2" } } */

enum { N = 3, D = 4, H = 5 };

struct ctx
{
  double *x, *W, *b;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return net (N, D, H, k->x, k->W, k->b);
}

int
main (void)
{
  double x[N * D], W[D * H], b[H], d_x[N * D], d_W[D * H], d_b[H];
  tg_fill (x, N * D, 1, -1, 1);
  tg_fill (W, D * H, 2, -0.6, 0.6);
  tg_fill (b, H, 3, -0.5, 0.5);
  tg_fill (d_x, N * D, 4, -1, 1);
  tg_fill (d_W, D * H, 5, -1, 1);
  tg_fill (d_b, H, 6, -1, 1);
  double *px = tg_dup (d_x, N * D), *pW = tg_dup (d_W, D * H);
  double *pb = tg_dup (d_b, H);
  net_grad (N, D, H, x, W, b, d_x, d_W, d_b, 1.0);
  tg_sub (d_x, d_x, px, N * D);
  tg_sub (d_W, d_W, pW, D * H);
  tg_sub (d_b, d_b, pb, H);
  struct ctx k = { x, W, b };
  tg_fd_check ("x", x, N * D, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("W", W, D * H, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, H, loss, &k, d_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
