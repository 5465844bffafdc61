/* { dg-do compile } */
/* How to rewrite (README): a scratch row reused by every position.
   char_rnn's loss with its states in the output hs and the logits of
   each position in one scratch row z[V], read after their loops at the
   target, z[tok[t + 1]]: refused at the store of the row.  The rewrite,
   a row of z per position, is tensorgrad.exec/rewrite-scratch-row.c.  */

#include <math.h>

__attribute__ ((differentiable))
double
rnn_loss (int T, int V, int H, const int *tok, const double *h0,
          const double *Wxh, const double *Whh, const double *bh,
          const double *Why, const double *by, double *hs)
{
  for (int j = 0; j < H; j++)
    hs[j] = h0[j];
  for (int t = 0; t < T; t++)
    for (int j = 0; j < H; j++)
      {
        double s = bh[j] + Wxh[tok[t] * H + j];
        for (int k = 0; k < H; k++)
          s += Whh[j * H + k] * hs[t * H + k];
        hs[(t + 1) * H + j] = tanh (s);
      }
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      double z[V];
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * hs[(t + 1) * H + j];
          z[v] = a; /* { dg-error "each element of 'z' is written more than once \\(its index does not use every loop counter\\); not supported yet" } */
          /* { dg-message "the gradient would lose the values overwritten; index 'z' by every loop counter, or accumulate with \\+=" "" { target *-*-* } .-1 } */
        }
      double mx = z[0];
      for (int v = 1; v < V; v++)
        mx = fmax (mx, z[v]);
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[v] - mx);
      loss += mx + log (se) - z[tok[t + 1]];
    }
  return loss / T;
}
