/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An LSTM over time written as C programmers do: for each step, one
   inner loop computes the four gates from the previous hidden state, a
   second the new cell and hidden states from them, element by element.
   The first inner loop reads the hidden state the second wrote in the
   previous step, so the two run as one loop (siblings.c) and the
   gradient runs backwards through time in one loop.  The sigmoid is a
   helper kernel, substituted where it is called.  h and c hold every
   state; the gates are local arrays of every step.  The gradient, for
   t from T - 1 down to 0, with dh and dc the adjoints of h and c (their
   shadows plus what later steps sent back), c' = c[t+1], h' = h[t+1]:
     dc' += dh' go (1 - tanh^2 c');  dgo = dh' tanh c';
     dgf = dc' c[t]; dgi = dc' gg; dgg = dc' gi; dc[t] += dc' gf;
     da0 = dgi gi (1 - gi), da1 = dgf gf (1 - gf), da2 = dgo go (1 - go),
     da3 = dgg (1 - gg^2);  for each gate k:
     d_b[kH+i] += da_k; d_U[kH+i] += da_k x[t]; d_x[t] += sum_i da_k U[kH+i];
     d_W[(kH+i)H+j] += da_k h[t][j]; dh[t][j] += sum_i da_k W[(kH+i)H+j];
   and d_h0 += dh[0].  TG_GRADCHECK checks d_W, d_U, d_b, d_x and d_h0
   against central differences, accumulation into the shadows, and that the
   inputs, h, c and their shadows are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
sigm (double a)
{
  return 1 / (1 + exp (-a));
}

/* W: 4 gates x H x H, U: 4 x H, b: 4 x H.  */
__attribute__ ((differentiable))
void
lstm (int T, int H, const double *W, const double *U, const double *b,
      const double *x, const double *h0, double *h, double *c)
{
  double gi[T * H], gf[T * H], go[T * H], gg[T * H];
  for (int i = 0; i < H; i++)
    {
      h[i] = h0[i];
      c[i] = 0;
    }
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < H; i++)
	{
	  double a0 = b[i] + U[i] * x[t], a1 = b[H + i] + U[H + i] * x[t];
	  double a2 = b[2 * H + i] + U[2 * H + i] * x[t];
	  double a3 = b[3 * H + i] + U[3 * H + i] * x[t];
	  for (int j = 0; j < H; j++)
	    {
	      a0 += W[i * H + j] * h[t * H + j];
	      a1 += W[(H + i) * H + j] * h[t * H + j];
	      a2 += W[(2 * H + i) * H + j] * h[t * H + j];
	      a3 += W[(3 * H + i) * H + j] * h[t * H + j];
	    }
	  gi[t * H + i] = sigm (a0);
	  gf[t * H + i] = sigm (a1);
	  go[t * H + i] = sigm (a2);
	  gg[t * H + i] = tanh (a3);
	}
      for (int i = 0; i < H; i++)
	{
	  c[(t + 1) * H + i] = gf[t * H + i] * c[t * H + i]
			       + gi[t * H + i] * gg[t * H + i];
	  h[(t + 1) * H + i] = go[t * H + i] * tanh (c[(t + 1) * H + i]);
	}
    }
}

/* { dg-final { scan-tensorgrad-dump "merge: the loops writing" } } */

enum { T = 4, H = 3, NS = (T + 1) * H };

int
main (void)
{
  int t = T, hh = H;
  double W[4 * H * H], U[4 * H], b[4 * H], x[T], h0[H];
  double h[NS] = { 0 }, c[NS] = { 0 };
  tg_fill (W, 4 * H * H, 1, -0.7, 0.7);
  tg_fill (U, 4 * H, 2, -1, 1);
  tg_fill (b, 4 * H, 3, -0.5, 0.5);
  tg_fill (x, T, 4, -1, 1);
  tg_fill (h0, H, 5, -0.5, 0.5);
  TG_GRADCHECK (lstm, &t, &hh, W, U, b, x, h0, h, c);
  return tg_exit ();
}
