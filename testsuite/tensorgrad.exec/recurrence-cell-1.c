/* { dg-do run } */
/* A recurrent cell with two states in one loop body, both outputs that
   hold every step (an LSTM's cell and hidden state, simplified):
     c[t+1][i] = 0.5 c[t][i] + tanh (sum_j W[i][j] h[t][j]);
     h[t+1][i] = tanh (c[t+1][i]) x[i].
   Two statements of one recurrent nest: their gradients must run in one
   backward loop, each iteration's statements together (each in a loop of
   its own, the adjoint of h reached the first statement one iteration
   late, and the gradient was wrong).  The loss weights every c and h.
   The gradient, for t from T - 1 down to 0, with cb and hb the adjoints
   of c and h (their shadows plus what later steps sent back) and s the
   sum at step t:
     cb[t+1] += hb[t+1] x (1 - tanh^2 c[t+1]);  d_x += hb[t+1] tanh c[t+1];
     e = cb[t+1] (1 - tanh^2 s);  d_W[i*H+j] += e[i] h[t][j];
     hb[t][j] += sum_i e[i] W[i*H+j];  cb[t] += 0.5 cb[t+1];
   then d_x += hb[0] (h[0] = x).  TG_GRADCHECK checks d_W and d_x against
   central differences, accumulation into the shadows, and that c, h, d_c
   and d_h are unchanged.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cell (int T, int H, const double *W, const double *x, double *c, double *h)
{
  for (int i = 0; i < H; i++)
    {
      c[i] = 0;
      h[i] = x[i];
    }
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double s = 0;
	for (int j = 0; j < H; j++)
	  s += W[i * H + j] * h[t * H + j];
	c[(t + 1) * H + i] = 0.5 * c[t * H + i] + tanh (s);
	h[(t + 1) * H + i] = tanh (c[(t + 1) * H + i]) * x[i];
      }
}

enum { T = 4, H = 3, NS = (T + 1) * H };

int
main (void)
{
  int t = T, hh = H;
  double W[H * H], x[H], c[NS] = { 0 }, h[NS] = { 0 };
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (x, H, 2, -1, 1);
  TG_GRADCHECK (cell, &t, &hh, W, x, c, h);
  return tg_exit ();
}
