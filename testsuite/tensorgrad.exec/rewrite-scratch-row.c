/* { dg-do run } */
/* How to rewrite (README): a scratch row reused by every position.  The
   rewrite of tensorgrad.err/rewrite-scratch-row.c, examples/char_rnn.c's
   kernel: the logits get a row per position, a local z[T * V] indexed
   z[t*V + v].  Checked: the loss and the states equal the original's
   (compiled here as plain C), and every component of the gradient
   against central differences (the kernel gathers through tok, so it
   has no descriptor: checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define rnn_loss rnn_loss_orig
#include "tensorgrad.err/rewrite-scratch-row.c"
#undef rnn_loss
#undef differentiable

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
  double z[T * V];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * hs[(t + 1) * H + j];
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
  return loss / T;
}

enum { T = 4, V = 5, H = 3 };
static const int tok[T + 1] = { 1, 4, 0, 4, 2 };
static double h0[H], Wxh[V * H], Whh[H * H], bh[H], Why[V * H], by[V];
static double hs[(T + 1) * H];

static double
loss (void *unused)
{
  (void) unused;
  return rnn_loss (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hs);
}

int
main (void)
{
  tg_fill (h0, H, 1, -0.5, 0.5);
  tg_fill (Wxh, V * H, 2, -1, 1);
  tg_fill (Whh, H * H, 3, -1, 1);
  tg_fill (bh, H, 4, -0.5, 0.5);
  tg_fill (Why, V * H, 5, -1, 1);
  tg_fill (by, V, 6, -0.5, 0.5);

  double hs0[(T + 1) * H];
  double l0 = rnn_loss_orig (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hs0);
  double l = loss (NULL);
  CHECK_NEAR (l, l0, 1e-14, 0);
  for (int k = 0; k < (T + 1) * H; k++)
    CHECK_NEAR_AT (hs[k], hs0[k], 1e-14, 0, k);

  double d_h0[H] = { 0 }, d_Wxh[V * H] = { 0 }, d_Whh[H * H] = { 0 };
  double d_bh[H] = { 0 }, d_Why[V * H] = { 0 }, d_by[V] = { 0 };
  rnn_loss_grad (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hs, d_h0, d_Wxh,
                 d_Whh, d_bh, d_Why, d_by, NULL, 1.0);
  tg_fd_check ("h0", h0, H, loss, NULL, d_h0, TG_RTOL, TG_ATOL);
  tg_fd_check ("Wxh", Wxh, V * H, loss, NULL, d_Wxh, TG_RTOL, TG_ATOL);
  tg_fd_check ("Whh", Whh, H * H, loss, NULL, d_Whh, TG_RTOL, TG_ATOL);
  tg_fd_check ("bh", bh, H, loss, NULL, d_bh, TG_RTOL, TG_ATOL);
  tg_fd_check ("Why", Why, V * H, loss, NULL, d_Why, TG_RTOL, TG_ATOL);
  tg_fd_check ("by", by, V, loss, NULL, d_by, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
