/* { dg-do run } */
/* Composition: a differentiable kernel calling other differentiable
   kernels of the same translation unit on local temporaries, an MLP
   forward pass mlp = dense, act (tanh), dense, n = 3 rows, d = 5 inputs,
   h = 7 hidden, c = 3 outputs at run time:
     dense (n, in, out, x, W, b, y): y[i*out+j] = b[j] + sum_p x[i*in+p] W[p*out+j];
     act (n, x, y): y[i] = tanh (x[i]);
     mlp: dense (n, d, h, x, W1, b1, z1); act (n*h, z1, a1);
	  dense (n, h, c, a1, W2, b2, y), z1 and a1 VLAs of n*h.
   Gradient void mlp_grad (n, d, h, c, x, W1, b1, W2, b2, y, d_x, d_W1,
   d_b1, d_W2, d_b2, d_y): with dz1 = (d_y W2^T) (1 - a1^2),
   d_W2 += a1^T d_y, d_b2 += colsum d_y, d_W1 += x^T dz1,
   d_b1 += colsum dz1, d_x += dz1 W1^T.  TG_GRADCHECK checks every component
   of every shadow against central differences, accumulation into pre-filled
   shadows, and that the inputs, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int in, int out, const double *x, const double *W,
       const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < out; j++)
      {
	double acc = b[j];
	for (int p = 0; p < in; p++)
	  acc += x[i * in + p] * W[p * out + j];
	y[i * out + j] = acc;
      }
}

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

__attribute__ ((differentiable))
void
mlp (int n, int d, int h, int c, const double *x, const double *W1,
     const double *b1, const double *W2, const double *b2, double *y)
{
  double z1[n * h], a1[n * h];
  dense (n, d, h, x, W1, b1, z1);
  act (n * h, z1, a1);
  dense (n, h, c, a1, W2, b2, y);
}

int
main (void)
{
  int n = 3, d = 5, h = 7, c = 3;
  double *x = tg_alloc (n * d), *W1 = tg_alloc (d * h), *b1 = tg_alloc (h);
  double *W2 = tg_alloc (h * c), *b2 = tg_alloc (c), *y = tg_alloc (n * c);
  tg_fill (x, n * d, 1, -1, 1);
  tg_fill (W1, d * h, 2, -0.8, 0.8);
  tg_fill (b1, h, 3, -0.5, 0.5);
  tg_fill (W2, h * c, 4, -0.8, 0.8);
  tg_fill (b2, c, 5, -0.5, 0.5);
  TG_GRADCHECK (mlp, &n, &d, &h, &c, x, W1, b1, W2, b2, y);
  return tg_exit ();
}
