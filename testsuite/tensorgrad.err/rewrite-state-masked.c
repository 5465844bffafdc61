/* { dg-do compile } */
/* How to rewrite (README): a state updated under a condition.  An RNN
   over a sequence padded to T steps keeps its state once the sequence
   has ended (t >= len): the copy back runs only while t < len.  Refused
   at the copy.  The rewrite, a copy back of every element that selects
   the old value, is tensorgrad.exec/rewrite-state-masked.c.  */

#include <math.h>

__attribute__ ((differentiable))
double
rnn_masked (int T, int H, int len, const double *x, const double *h0,
            const double *W, const double *u, double *hT)
{
  double h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = x[t * H + j];
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        if (t < len)
          h[j] = hn[j]; /* { dg-error "'h' is written by more than one loop nest; not supported yet" } */
      /* { dg-message "the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
    }
  double loss = 0;
  for (int j = 0; j < H; j++)
    {
      hT[j] = h[j];
      loss += u[j] * h[j];
    }
  return loss;
}
