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
   d_b1 += colsum dz1, d_x += dz1 W1^T.  Checks every component of every
   shadow against central differences, accumulation into pre-filled
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

struct ctx
{
  int n, d, h, c;
  double *x, *W1, *b1, *W2, *b2, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  mlp (k->n, k->d, k->h, k->c, k->x, k->W1, k->b1, k->W2, k->b2, k->y);
  return tg_dot (k->cy, k->y, k->n * k->c);
}

int
main (void)
{
  int n = 3, d = 5, h = 7, c = 3;
  int nx = n * d, nW1 = d * h, nW2 = h * c, ny = n * c;
  double *x = tg_alloc (nx), *W1 = tg_alloc (nW1), *b1 = tg_alloc (h);
  double *W2 = tg_alloc (nW2), *b2 = tg_alloc (c), *y = tg_alloc (ny);
  double *cy = tg_alloc (ny);
  double *d_x = tg_alloc (nx), *d_W1 = tg_alloc (nW1), *d_b1 = tg_alloc (h);
  double *d_W2 = tg_alloc (nW2), *d_b2 = tg_alloc (c);
  tg_fill (x, nx, 1, -1, 1);
  tg_fill (W1, nW1, 2, -0.8, 0.8);
  tg_fill (b1, h, 3, -0.5, 0.5);
  tg_fill (W2, nW2, 4, -0.8, 0.8);
  tg_fill (b2, c, 5, -0.5, 0.5);
  tg_fill (cy, ny, 6, -1, 1);
  tg_fill (d_x, nx, 7, -1, 1);
  tg_fill (d_W1, nW1, 8, -1, 1);
  tg_fill (d_b1, h, 9, -1, 1);
  tg_fill (d_W2, nW2, 10, -1, 1);
  tg_fill (d_b2, c, 11, -1, 1);

  mlp (n, d, h, c, x, W1, b1, W2, b2, y);
  double *x0 = tg_dup (x, nx), *W10 = tg_dup (W1, nW1), *b10 = tg_dup (b1, h);
  double *W20 = tg_dup (W2, nW2), *b20 = tg_dup (b2, c), *y0 = tg_dup (y, ny);
  double *d_y = tg_dup (cy, ny);
  double *pre_x = tg_dup (d_x, nx), *pre_W1 = tg_dup (d_W1, nW1);
  double *pre_b1 = tg_dup (d_b1, h), *pre_W2 = tg_dup (d_W2, nW2);
  double *pre_b2 = tg_dup (d_b2, c);

  mlp_grad (n, d, h, c, x, W1, b1, W2, b2, y, d_x, d_W1, d_b1, d_W2, d_b2,
	    d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (W1, W10, nW1 * sizeof *W1);
  CHECK_SAME (b1, b10, h * sizeof *b1);
  CHECK_SAME (W2, W20, nW2 * sizeof *W2);
  CHECK_SAME (b2, b20, c * sizeof *b2);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, cy, ny * sizeof *d_y);
  double *g_x = tg_alloc (nx), *g_W1 = tg_alloc (nW1), *g_b1 = tg_alloc (h);
  double *g_W2 = tg_alloc (nW2), *g_b2 = tg_alloc (c);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_W1, d_W1, pre_W1, nW1);
  tg_sub (g_b1, d_b1, pre_b1, h);
  tg_sub (g_W2, d_W2, pre_W2, nW2);
  tg_sub (g_b2, d_b2, pre_b2, c);
  struct ctx k = { n, d, h, c, x, W1, b1, W2, b2, y, cy };
  tg_fd_check ("x", x, nx, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("W1", W1, nW1, loss, &k, g_W1, TG_RTOL, TG_ATOL);
  tg_fd_check ("b1", b1, h, loss, &k, g_b1, TG_RTOL, TG_ATOL);
  tg_fd_check ("W2", W2, nW2, loss, &k, g_W2, TG_RTOL, TG_ATOL);
  tg_fd_check ("b2", b2, c, loss, &k, g_b2, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
