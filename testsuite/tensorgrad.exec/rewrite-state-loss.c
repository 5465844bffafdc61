/* { dg-do run } */
/* How to rewrite (README): a loss read inside the loop that updates the
   state.  The rewrite of tensorgrad.err/rewrite-state-loss.c: the loss
   adds up the state in a loop of its own, before the loop that copies
   the new state back, so it reads the step's old state as the original
   does.  Checked: the loss equals the original's (compiled here as
   plain C), and the gradient through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define rnn_energy rnn_energy_orig
#include "tensorgrad.err/rewrite-state-loss.c"
#undef rnn_energy
#undef differentiable

__attribute__ ((differentiable))
double
rnn_energy (int T, int H, const double *x, const double *U, const double *h0)
{
  double h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = x[t * H + j];
          for (int k = 0; k < H; k++)
            s += U[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        loss += h[j] * h[j];
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  return loss;
}

int
main (void)
{
  int T = 4, H = 3;
  double *x = tg_alloc (T * H), *U = tg_alloc (H * H), *h0 = tg_alloc (H);
  tg_fill (x, T * H, 1, -1, 1);
  tg_fill (U, H * H, 2, -1, 1);
  tg_fill (h0, H, 3, -1, 1);
  CHECK_NEAR (rnn_energy (T, H, x, U, h0), rnn_energy_orig (T, H, x, U, h0),
              1e-15, 0);
  TG_GRADCHECK (rnn_energy, &T, &H, x, U, h0);
  return tg_exit ();
}
