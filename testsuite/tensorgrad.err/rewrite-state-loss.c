/* { dg-do compile } */
/* How to rewrite (README): a loss read inside the loop that updates the
   state.  An RNN whose loss adds up the squares of the state of every
   step in the very loop that copies the new state back.  Refused at the
   use of the loss.  The rewrite, the loss in a loop of its own before
   the update, is tensorgrad.exec/rewrite-state-loss.c.  */

#include <math.h>

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
        {
          loss += h[j] * h[j];
          h[j] = hn[j];
        }
    }
  return loss; /* { dg-error "'h' is read in a sum over the steps of the loop that updates it, where it cannot be told which step it reads; not supported yet" } */
  /* { dg-message "read 'h' in a loop of its own after the loop that updates it in the step, or store the state of every step in an array" "" { target *-*-* } .-1 } */
}
