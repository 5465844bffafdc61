/* { dg-do compile } */
/* How to rewrite (README): a state copied back in a time loop.
   char_rnn's loss as first written: the state in a local h[H] that each
   step computes into hn[H] and copies back, the final state copied to
   the output hT for the next window.  Refused at the copy.  The rewrite,
   every state in an output hs, is tensorgrad.exec/rewrite-state-copy.c
   (and examples/char_rnn.c).  */

#include <math.h>

__attribute__ ((differentiable))
double
rnn_loss (int T, int V, int H, const int *tok, const double *h0,
          const double *Wxh, const double *Whh, const double *bh,
          const double *Why, const double *by, double *hT)
{
  double h[H], hn[H], z[T * V];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = bh[j] + Wxh[tok[t] * H + j];
          for (int k = 0; k < H; k++)
            s += Whh[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j]; /* { dg-error "'h' is written by more than one loop nest; not supported yet" } */
      /* { dg-message "the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * h[j];
          z[t * V + v] = a;
        }
      double mx = z[t * V];
      for (int v = 1; v < V; v++)
        mx = fmax (mx, z[t * V + v]);
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[t * V + v] - mx);
      loss += mx + log (se) - z[t * V + tok[t + 1]];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss / T;
}
