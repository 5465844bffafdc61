/* { dg-do run } */
/* An RNN whose state is a local rolling buffer h[t % 2] of two steps,
   with the loss summed at every step right after the state is written:
     h[(t+1)%2][i] = tanh (sum_j W[i][j] h[t%2][j] + U[i] x[t]);
     l += v[i] h[(t+1)%2][i].
   The lifter makes the loss a reduction after the loop; each of its
   reads is of the state written in the same iteration, so the buffer can
   be given every step (rolling.c; it was refused as written twice).
   Checks d_W, d_U, d_x and d_v against central differences.  */

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

struct ctx
{
  double *W, *U, *x, *v;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  return roll (T, H, k->W, k->U, k->x, k->v);
}

int
main (void)
{
  double W[H * H], U[H], x[T], v[H];
  double d_W[H * H] = { 0 }, d_U[H] = { 0 }, d_x[T] = { 0 }, d_v[H] = { 0 };
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (U, H, 2, -1, 1);
  tg_fill (x, T, 3, -1, 1);
  tg_fill (v, H, 4, -1, 1);
  roll_grad (T, H, W, U, x, v, d_W, d_U, d_x, d_v, 1.0);
  struct ctx k = { W, U, x, v };
  tg_fd_check ("W", W, H * H, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("U", U, H, loss, &k, d_U, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, T, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, H, loss, &k, d_v, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
