/* { dg-do run } */
/* char_rnn's loss as first written (README "An example that learns";
   examples/char_rnn.c's comment), both of its refusals lifted: the
   state in a local h[H] computed into hn[H] and copied back (carry.c:
   a tape), the final state copied to the output hT for the next window,
   the logits of each position in one scratch row z[V] read after the
   row's loops at the target z[tok[t + 1]] (expand.c: a row per
   position):
     h_{t+1} = tanh (bh + Wxh[tok_t] + Whh h_t),  hT = h_T,
     z_t = by + Why h_{t+1},
     ret = 1/T sum_t (lse (z_t) - z_t[tok_{t+1}]).
   The gradient, with an incoming adjoint for hT, checked by hand
   against central differences (the kernel gathers through tok, so it
   has no descriptor).  Float and double.  */

#include "tg-test.h"
__attribute__ ((differentiable))
double
rnn_loss (int T, int V, int H, const int *tok, const double *h0,
          const double *Wxh, const double *Whh, const double *bh,
          const double *Why, const double *by, double *hT)
{
  double h[H], hn[H];
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
      double z[V];
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * h[j];
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
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss / T;
}
__attribute__ ((differentiable))
float
rnn_loss_f (int T, int V, int H, const int *tok, const float *h0,
          const float *Wxh, const float *Whh, const float *bh,
          const float *Why, const float *by, float *hT)
{
  float h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  float loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          float s = bh[j] + Wxh[tok[t] * H + j];
          for (int k = 0; k < H; k++)
            s += Whh[j * H + k] * h[k];
          hn[j] = tanhf (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
      float z[V];
      for (int v = 0; v < V; v++)
        {
          float a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * h[j];
          z[v] = a;
        }
      float mx = z[0];
      for (int v = 1; v < V; v++)
        mx = fmaxf (mx, z[v]);
      float se = 0;
      for (int v = 0; v < V; v++)
        se += expf (z[v] - mx);
      loss += mx + logf (se) - z[tok[t + 1]];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss / T;
}
enum { T = 4, V = 5, H = 3 };
static const int tok[T + 1] = { 1, 4, 0, 4, 2 };
static double h0[H], Wxh[V * H], Whh[H * H], bh[H], Why[V * H], by[V];
static double hT[H], c_hT[H]; /* the loss's weights of hT */
static float h0f[H], Wxhf[V * H], Whhf[H * H], bhf[H], Whyf[V * H], byf[V];
static float hTf[H];

static double
loss (void *unused)
{
  (void) unused;
  double l = rnn_loss (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hT);
  for (int j = 0; j < H; j++)
    l += c_hT[j] * hT[j];
  return l;
}

static double
loss_f (void *unused)
{
  (void) unused;
  return rnn_loss_f (T, V, H, tok, h0f, Wxhf, Whhf, bhf, Whyf, byf, hTf);
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
  double d_h0[H] = { 0 }, d_Wxh[V * H] = { 0 }, d_Whh[H * H] = { 0 };
  double d_bh[H] = { 0 }, d_Why[V * H] = { 0 }, d_by[V] = { 0 };
  double d_hT[H];
  memcpy (d_hT, c_hT, sizeof d_hT);
  loss (NULL);
  rnn_loss_grad (T, V, H, tok, h0, Wxh, Whh, bh, Why, by, hT, d_h0, d_Wxh,
                 d_Whh, d_bh, d_Why, d_by, d_hT, 1.0);
  CHECK_SAME (d_hT, c_hT, sizeof d_hT);
  tg_fd_check ("h0", h0, H, loss, NULL, d_h0, TG_RTOL, TG_ATOL);
  tg_fd_check ("Wxh", Wxh, V * H, loss, NULL, d_Wxh, TG_RTOL, TG_ATOL);
  tg_fd_check ("Whh", Whh, H * H, loss, NULL, d_Whh, TG_RTOL, TG_ATOL);
  tg_fd_check ("bh", bh, H, loss, NULL, d_bh, TG_RTOL, TG_ATOL);
  tg_fd_check ("Why", Why, V * H, loss, NULL, d_Why, TG_RTOL, TG_ATOL);
  tg_fd_check ("by", by, V, loss, NULL, d_by, TG_RTOL, TG_ATOL);

  /* Float, no gradient of h0 wanted and no incoming adjoint of hT.  */
  for (int i = 0; i < H; i++)
    {
      h0f[i] = (float) h0[i];
      bhf[i] = (float) bh[i];
    }
  for (int i = 0; i < V * H; i++)
    {
      Wxhf[i] = (float) Wxh[i];
      Whyf[i] = (float) Why[i];
    }
  for (int i = 0; i < H * H; i++)
    Whhf[i] = (float) Whh[i];
  for (int i = 0; i < V; i++)
    byf[i] = (float) by[i];
  float f_Wxh[V * H] = { 0 }, f_Whh[H * H] = { 0 }, f_bh[H] = { 0 };
  float f_Why[V * H] = { 0 }, f_by[V] = { 0 };
  loss_f (NULL);
  rnn_loss_f_grad (T, V, H, tok, h0f, Wxhf, Whhf, bhf, Whyf, byf, hTf, NULL,
                   f_Wxh, f_Whh, f_bh, f_Why, f_by, NULL, 1.0f);
  tg_fd_check_f ("Wxh", Wxhf, V * H, loss_f, NULL, f_Wxh, TG_RTOL_F,
                 TG_ATOL_F);
  tg_fd_check_f ("Whh", Whhf, H * H, loss_f, NULL, f_Whh, TG_RTOL_F,
                 TG_ATOL_F);
  tg_fd_check_f ("bh", bhf, H, loss_f, NULL, f_bh, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("Why", Whyf, V * H, loss_f, NULL, f_Why, TG_RTOL_F,
                 TG_ATOL_F);
  tg_fd_check_f ("by", byf, V, loss_f, NULL, f_by, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}
