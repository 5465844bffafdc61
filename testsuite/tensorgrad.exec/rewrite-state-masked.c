/* { dg-do run } */
/* How to rewrite (README): a state updated under a condition.  The
   rewrite of tensorgrad.err/rewrite-state-masked.c: every step copies
   every element back, the old one where the sequence has ended,
   h[j] = t < len ? hn[j] : h[j]; h gets a tape.
     h_{t+1} = t < len ? tanh (x_t + W h_t) : h_t,  hT = h_T,
     ret = u . h_T.
   Checked: the loss and hT equal the original's (compiled here as plain
   C), for len inside and beyond T, and the gradient through the
   descriptor, also with the shadows of h0 and hT NULL.  */

#include "tg-test.h"

#define differentiable unused
#define rnn_masked rnn_masked_orig
#include "tensorgrad.err/rewrite-state-masked.c"
#undef rnn_masked
#undef differentiable

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
        h[j] = t < len ? hn[j] : h[j];
    }
  double loss = 0;
  for (int j = 0; j < H; j++)
    {
      hT[j] = h[j];
      loss += u[j] * h[j];
    }
  return loss;
}

int
main (void)
{
  int T = 5, H = 3;
  double *x = tg_alloc (T * H), *h0 = tg_alloc (H), *W = tg_alloc (H * H);
  double *u = tg_alloc (H), *hT = tg_alloc (H), hT0[3];
  tg_fill (x, T * H, 1, -1, 1);
  tg_fill (h0, H, 2, -1, 1);
  tg_fill (W, H * H, 3, -1, 1);
  tg_fill (u, H, 4, -1, 1);
  for (int len = 3; len <= 7; len += 4)
    {
      double l0 = rnn_masked_orig (T, H, len, x, h0, W, u, hT0);
      double l = rnn_masked (T, H, len, x, h0, W, u, hT);
      CHECK_NEAR (l, l0, 1e-14, 0);
      for (int j = 0; j < H; j++)
        CHECK_NEAR_AT (hT[j], hT0[j], 1e-14, 0, j);
      TG_GRADCHECK (rnn_masked, &T, &H, &len, x, h0, W, u, hT);
      TG_GRADCHECK_NULL (rnn_masked, "h0 hT", &T, &H, &len, x, h0, W, u, hT);
    }
  return tg_exit ();
}
