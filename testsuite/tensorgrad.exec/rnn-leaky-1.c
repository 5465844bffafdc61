/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A leaky recurrent layer over time, h holding every state:
     h[(t+1)*H + i] = a * h[t*H + i] + tanh (sum_j W[i*H+j] h[t*H+j] + x[t*H+i])
   with a scalar parameter a.  Backward through time needs the adjoint of
   each pre-activation and of the reduction for one iteration only: they
   are scalars of the gradient (lib/passes/shrink.c), not arrays of T*H.
   The gradient, for t from T - 1
   down to 0, with hb the adjoint of h (its shadow plus what later steps
   sent back) and e = hb[t+1] (1 - tanh^2 s): d_x[t*H+i] += e[i];
   d_W[i*H+j] += e[i] h[t][j]; *d_a += sum_i hb[t+1][i] h[t][i];
   hb[t][j] += a hb[t+1][j] + sum_i e[i] W[i*H+j]; then d_h0 += hb[0].
   TG_GRADCHECK checks d_W, d_x, d_h0 and d_a against central
   differences, accumulation into the shadows, and that h and d_h are
   unchanged.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky (int T, int H, double a, const double *W, const double *x,
       const double *h0, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double s = x[t * H + i];
	for (int j = 0; j < H; j++)
	  s += W[i * H + j] * h[t * H + j];
	h[(t + 1) * H + i] = a * h[t * H + i] + tanh (s);
      }
}

/* { dg-final { scan-tensorgrad-dump-times "shrink: \[dv\]\[0-9\]+ to one element" 2 } } */
/* { dg-final { scan-tensorgrad-dump "shrink: e_h to two steps of H elements" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*T" } } */

int
main (void)
{
  enum { T = 6, H = 4 };
  int t = T, hh = H;
  double a = 0.6;
  double *W = tg_alloc (H * H), *x = tg_alloc (T * H), *h0 = tg_alloc (H);
  double *h = tg_alloc ((T + 1) * H);
  tg_fill (W, H * H, 1, -0.7, 0.7);
  tg_fill (x, T * H, 2, -1, 1);
  tg_fill (h0, H, 3, -0.5, 0.5);
  TG_GRADCHECK (leaky, &t, &hh, &a, W, x, h0, h);
  return tg_exit ();
}
