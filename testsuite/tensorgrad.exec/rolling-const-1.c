/* { dg-do run } */
/* Rolling buffers over a constant number of steps.  The final state's
   slot h[STEPS % 2] is then a constant, which GCC folds (h[1][i] after 5
   steps, h[0][i] after 6, where the initial state also lives), so the
   read after the loop carries no modulo; it still reads the step that
   last filled that slot.  An Elman RNN (as rnn-rolling-1.c:
   h_{t+1} = tanh (b + W h_t + U x_t), loss v . h_T) over 5 and over 6
   steps, and in float a leaky integrator with a three-slot buffer over 7
   steps, y[i] = the 7th state:
     s_{t+1}[i] = 0.5 s_t[i] + tanhf (a[t * n + i] * s_t[i]),  s_0 = x
   (the buffer s[3][n], slots t % 3).  */

#include <math.h>
#include "tg-test.h"

#define RNN(NAME, STEPS)                                                    \
  __attribute__ ((differentiable)) double                                  \
  NAME (int H, int D, const double *W, const double *U, const double *b,   \
        const double *x, const double *h0, const double *v)                \
  {                                                                         \
    double h[2][H];                                                         \
    for (int i = 0; i < H; i++)                                             \
      h[0][i] = h0[i];                                                      \
    for (int t = 0; t < STEPS; t++)                                         \
      for (int i = 0; i < H; i++)                                           \
        {                                                                   \
          double acc = b[i];                                                \
          for (int j = 0; j < H; j++)                                       \
            acc += W[i * H + j] * h[t % 2][j];                              \
          for (int k = 0; k < D; k++)                                       \
            acc += U[i * D + k] * x[t * D + k];                             \
          h[(t + 1) % 2][i] = tanh (acc);                                   \
        }                                                                   \
    double l = 0;                                                           \
    for (int i = 0; i < H; i++)                                             \
      l += v[i] * h[STEPS % 2][i];                                          \
    return l;                                                               \
  }

RNN (rnn5, 5)
RNN (rnn6, 6)

__attribute__ ((differentiable))
void
leaky (int n, const float *x, const float *a, float *y)
{
  float s[3][n];
  for (int i = 0; i < n; i++)
    s[0][i] = x[i];
  for (int t = 0; t < 7; t++)
    for (int i = 0; i < n; i++)
      s[(t + 1) % 3][i] = 0.5f * s[t % 3][i]
                          + tanhf (a[t * n + i] * s[t % 3][i]);
  for (int i = 0; i < n; i++)
    y[i] = s[7 % 3][i];
}

int
main (void)
{
  int H = 3, D = 4;
  double *W = tg_alloc (H * H), *U = tg_alloc (H * D), *b = tg_alloc (H);
  double *x = tg_alloc (6 * D), *h0 = tg_alloc (H), *v = tg_alloc (H);
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (U, H * D, 2, -0.8, 0.8);
  tg_fill (b, H, 3, -0.5, 0.5);
  tg_fill (x, 6 * D, 4, -1, 1);
  tg_fill (h0, H, 5, -0.9, 0.9);
  tg_fill (v, H, 6, -1, 1);
  TG_GRADCHECK (rnn5, &H, &D, W, U, b, x, h0, v);
  TG_GRADCHECK (rnn6, &H, &D, W, U, b, x, h0, v);
  TG_GRADCHECK_NULL (rnn6, "U x", &H, &D, W, U, b, x, h0, v);

  int n = 5;
  float *xs = tg_alloc_f (n), *a = tg_alloc_f (7 * n), *y = tg_alloc_f (n);
  tg_fill_f (xs, n, 7, -1, 1);
  tg_fill_f (a, 7 * n, 8, -1, 1);
  TG_GRADCHECK (leaky, &n, xs, a, y);
  return tg_exit ();
}
