/* { dg-do run } */
/* An RNN whose state is a local rolling buffer h[t % 2] of two steps,
   with the loss summed at every step right after the state is written:
     h[(t+1)%2][i] = tanh (sum_j W[i][j] h[t%2][j] + U[i] x[t]);
     l += v[i] h[(t+1)%2][i].
   The lifter makes the loss a reduction after the loop; each of its
   reads is of the state written in the same iteration, so the buffer can
   be given every step (rolling.c; it was refused as written twice).
   With h_t the state after t steps (h_0 = 0.1 v) and
   g_t its adjoint, backwards from g_T = d_r v:
     e = g_{t+1} (1 - h_{t+1}^2);  d_W[i*H+j] += e[i] h_t[j];
     d_U[i] += e[i] x[t];  d_x[t] += sum_i e[i] U[i];
     g_t[j] = d_r v[j] (t > 0) + sum_i e[i] W[i*H+j];
   d_v += d_r sum_{t>=1} h_t + 0.1 g_0.  TG_GRADCHECK checks d_W, d_U, d_x
   and d_v against central differences, accumulation into the shadows, and
   that the inputs are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
roll (int T, int H, const double *W, const double *U, const double *x,
      const double *v)
{
  double h[2][H];
  for (int i = 0; i < H; i++)
    h[0][i] = 0.1 * v[i];
  double l = 0;
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double a = U[i] * x[t];
	for (int j = 0; j < H; j++)
	  a += W[i * H + j] * h[t % 2][j];
	h[(t + 1) % 2][i] = tanh (a);
	l += v[i] * h[(t + 1) % 2][i];
      }
  return l;
}

enum { T = 5, H = 3 };

int
main (void)
{
  int t = T, h = H;
  double W[H * H], U[H], x[T], v[H];
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (U, H, 2, -1, 1);
  tg_fill (x, T, 3, -1, 1);
  tg_fill (v, H, 4, -1, 1);
  TG_GRADCHECK (roll, &t, &h, W, U, x, v);
  return tg_exit ();
}
