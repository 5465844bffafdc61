/* { dg-do run } */
/* char_rnn's loss as first written (README "An example that learns"):
   the state in a local h[H] that each step computes into hn[H] and
   copies back, the final state copied to the output hT for the next
   window, the logits of each position in a row of z:
     h_{t+1} = tanh (bh + Wxh[tok_t] + Whh h_t),  hT = h_T,
     z_t = by + Why h_{t+1},
     ret = 1/T sum_t (lse (z_t) - z_t[tok_{t+1}]).
   h gets a tape (carry.c).  The loss, and hT, equal those of the
   rewrite with every state in an output hs (examples/char_rnn.c's
   kernel, here as plain C); the gradient, with an incoming adjoint for
   hT, is checked by hand against central differences (the kernel
   gathers through tok, so it has no descriptor), and again with the
   shadows of h0 and hT NULL.  */

#include "tg-test.h"

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
        h[j] = hn[j];
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

/* The rewrite, every state in hs, as plain C.  */
static double
rnn_loss_hs (int T, int V, int H, const int *tok, const double *h0,
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
          z[v] = a;
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

enum { T = 5, V = 5, H = 3 };
static const int tok[T + 1] = { 1, 4, 0, 4, 2, 3 };
static double h0[H], Wxh[V * H], Whh[H * H], bh[H], Why[V * H], by[V];
static double hT[H], c_hT[H]; /* the loss's weights of hT */

static double
loss (void *unused)
{
  (void) unused;
  double l = rnn_loss (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hT);
  for (int j = 0; j < H; j++)
    l += c_hT[j] * hT[j];
  return l;
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
  tg_fill (c_hT, H, 7, -1, 1);

  double hs[(T + 1) * H];
  double l0 = rnn_loss_hs (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hs);
  double l = rnn_loss (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hT);
  CHECK_NEAR (l, l0, 1e-14, 0);
  for (int j = 0; j < H; j++)
    CHECK_NEAR_AT (hT[j], hs[T * H + j], 1e-14, 0, j);

  /* Shadows pre-filled: the gradient adds to them.  */
  double d_h0[H], d_Wxh[V * H], d_Whh[H * H], d_bh[H], d_Why[V * H], d_by[V];
  double p_Wxh[V * H], p_Whh[H * H], p_bh[H], p_Why[V * H], p_by[V];
  double d_hT[H], p_h0[H];
  tg_fill (p_h0, H, 11, -1, 1);
  tg_fill (p_Wxh, V * H, 12, -1, 1);
  tg_fill (p_Whh, H * H, 13, -1, 1);
  tg_fill (p_bh, H, 14, -1, 1);
  tg_fill (p_Why, V * H, 15, -1, 1);
  tg_fill (p_by, V, 16, -1, 1);
  for (int pass = 0; pass < 2; pass++)
    {
      memcpy (d_h0, p_h0, sizeof d_h0);
      memcpy (d_Wxh, p_Wxh, sizeof d_Wxh);
      memcpy (d_Whh, p_Whh, sizeof d_Whh);
      memcpy (d_bh, p_bh, sizeof d_bh);
      memcpy (d_Why, p_Why, sizeof d_Why);
      memcpy (d_by, p_by, sizeof d_by);
      memcpy (d_hT, c_hT, sizeof d_hT);
      /* Pass 1: no gradient of h0 wanted, no incoming adjoint of hT.  */
      int nulls = pass == 1;
      if (nulls)
        memset (c_hT, 0, sizeof c_hT);
      loss (NULL);
      double hT0[H];
      memcpy (hT0, hT, sizeof hT);
      rnn_loss_grad (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hT,
                     nulls ? NULL : d_h0, d_Wxh, d_Whh, d_bh, d_Why, d_by,
                     nulls ? NULL : d_hT, 1.0);
      CHECK_SAME (hT, hT0, sizeof hT0);
      if (!nulls)
        CHECK_SAME (d_hT, c_hT, sizeof d_hT);
      for (int i = 0; i < H; i++)
        d_h0[i] -= p_h0[i];
      for (int i = 0; i < V * H; i++)
        {
          d_Wxh[i] -= p_Wxh[i];
          d_Why[i] -= p_Why[i];
        }
      for (int i = 0; i < H * H; i++)
        d_Whh[i] -= p_Whh[i];
      for (int i = 0; i < H; i++)
        d_bh[i] -= p_bh[i];
      for (int i = 0; i < V; i++)
        d_by[i] -= p_by[i];
      if (!nulls)
        tg_fd_check ("h0", h0, H, loss, NULL, d_h0, TG_RTOL, TG_ATOL);
      tg_fd_check ("Wxh", Wxh, V * H, loss, NULL, d_Wxh, TG_RTOL, TG_ATOL);
      tg_fd_check ("Whh", Whh, H * H, loss, NULL, d_Whh, TG_RTOL, TG_ATOL);
      tg_fd_check ("bh", bh, H, loss, NULL, d_bh, TG_RTOL, TG_ATOL);
      tg_fd_check ("Why", Why, V * H, loss, NULL, d_Why, TG_RTOL, TG_ATOL);
      tg_fd_check ("by", by, V, loss, NULL, d_by, TG_RTOL, TG_ATOL);
    }
  return tg_exit ();
}
