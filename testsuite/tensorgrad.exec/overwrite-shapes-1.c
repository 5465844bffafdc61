/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A temporary updated in place by nests of different shapes: a dense
   layer (a call, inlined) writes t over i < n, j < h; a bias is added in
   place over the same nest; tanh is applied in place over one flat loop
   k < n*h.  Each earlier version of t gets an array of its own (the flat
   loop writes the same dense range of n*h elements).  The loss is
   the sum of squares: with t = tanh (x W + b) and e = 2 d_r t (1 - t^2),
   d_b[j] += sum_i e[i*h+j]; d_W[k*h+j] += sum_i x[i*d+k] e[i*h+j];
   d_x[i*d+k] += sum_j e[i*h+j] W[k*h+j].  TG_GRADCHECK checks d_x, d_W and
   d_b against central differences, accumulation into the shadows, and that
   the inputs are untouched.  */

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

int
main (void)
{
  int n = N, d = D, h = H;
  double x[N * D], W[D * H], b[H];
  tg_fill (x, N * D, 1, -1, 1);
  tg_fill (W, D * H, 2, -0.6, 0.6);
  tg_fill (b, H, 3, -0.5, 0.5);
  TG_GRADCHECK (net, &n, &d, &h, x, W, b);
  return tg_exit ();
}
