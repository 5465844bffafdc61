/* { dg-do run } */
/* A scratch row rewritten in every iteration of an outer loop and read
   after the row's loops, within the same iteration, at one element (the
   loss reads it in a sum over the outer loop): expand.c gives the row a
   copy per iteration and the read the copy of its iteration.
   (1) A per-sample logits row with the cross-entropy read at the target
   (double; gathered through y, so checked by hand):
     z_n = b + W x_n,  ret = 1/N sum_n (lse (z_n) - z_n[y_n]).
   (2) Constant elements of the row (float, through the descriptor):
     z_t[v] = tanh (a[t] * c[v]),  ret = sum_t z_t[1] * z_t[0] + z_t[2].
   (3) Positions t of the sequences b of a batch, the row per (b, t), the
   loss summed over both (double, by hand):
     z_bt = W e_{tok[b][t]},  ret = sum_{b,t} (lse (z_bt) - z_bt[tok[b][t+1]]).
   (4) The target's logit inside the sum over the row (float, by hand),
   a gather in the stage hoist makes of the sum:
     ret = sum_n log (sum_v exp (z_n[v] - z_n[y_n])),  z_n = W x_n.
   The dump's notes: tensorgrad.err/expand-dump-late-1.c.  */

#include "tg-test.h"

__attribute__ ((differentiable))
double
xent_rows (int N, int D, int V, const int *y, const double *x,
           const double *W, const double *b)
{
  double loss = 0;
  for (int n = 0; n < N; n++)
    {
      double z[V];
      for (int v = 0; v < V; v++)
        {
          double a = b[v];
          for (int d = 0; d < D; d++)
            a += W[v * D + d] * x[n * D + d];
          z[v] = a;
        }
      double mx = z[0];
      for (int v = 1; v < V; v++)
        mx = fmax (mx, z[v]);
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[v] - mx);
      loss += mx + log (se) - z[y[n]];
    }
  return loss / N;
}

__attribute__ ((differentiable))
float
pick_const (int T, int V, const float *a, const float *c)
{
  float loss = 0;
  for (int t = 0; t < T; t++)
    {
      float z[V];
      for (int v = 0; v < V; v++)
        z[v] = tanhf (a[t] * c[v]);
      loss += z[1] * z[0] + z[2];
    }
  return loss;
}

__attribute__ ((differentiable))
double
batch_next (int B, int T, int V, int E, const int *tok, const double *emb,
            const double *W)
{
  double loss = 0;
  for (int s = 0; s < B; s++)
    for (int t = 0; t < T; t++)
      {
        double z[V];
        for (int v = 0; v < V; v++)
          {
            double a = 0;
            for (int e = 0; e < E; e++)
              a += W[v * E + e] * emb[tok[s * (T + 1) + t] * E + e];
            z[v] = a;
          }
        double se = 0;
        for (int v = 0; v < V; v++)
          se += exp (z[v]);
        loss += log (se) - z[tok[s * (T + 1) + t + 1]];
      }
  return loss;
}

__attribute__ ((differentiable))
float
xent_shift (int N, int D, int V, const int *y, const float *x,
            const float *W)
{
  float loss = 0;
  for (int n = 0; n < N; n++)
    {
      float z[V];
      for (int v = 0; v < V; v++)
        {
          float a = 0;
          for (int d = 0; d < D; d++)
            a += W[v * D + d] * x[n * D + d];
          z[v] = a;
        }
      float se = 0;
      for (int v = 0; v < V; v++)
        se += expf (z[v] - z[y[n]]);
      loss += logf (se);
    }
  return loss;
}

enum { N = 4, D = 3, V = 5, B = 2, T = 3, E = 2 };
static const int y[N] = { 3, 0, 4, 4 };
static const int tok[B * (T + 1)] = { 1, 4, 0, 2, 3, 3, 1, 0 };
static double x[N * D], W[V * D], b[V], emb[V * E], W2[V * E];

static double
loss_rows (void *unused)
{
  (void) unused;
  return xent_rows (N, D, V, y, x, W, b);
}

static float xf[N * D], Wf[V * D];

static double
loss_shift (void *unused)
{
  (void) unused;
  return xent_shift (N, D, V, y, xf, Wf);
}

static double
loss_batch (void *unused)
{
  (void) unused;
  return batch_next (B, T, V, E, tok, emb, W2);
}

/* Check the gradient ADD - PRE of one input X of N elements.  */
static void
check_added (const char *name, double *x, int n, double (*loss) (void *),
             double *add, const double *pre)
{
  for (int i = 0; i < n; i++)
    add[i] -= pre[i];
  tg_fd_check (name, x, n, loss, NULL, add, TG_RTOL, TG_ATOL);
}

int
main (void)
{
  tg_fill (x, N * D, 1, -1, 1);
  tg_fill (W, V * D, 2, -1, 1);
  tg_fill (b, V, 3, -0.5, 0.5);
  double pre_W[V * D], pre_b[V], pre_x[N * D];
  tg_fill (pre_W, V * D, 4, -1, 1);
  tg_fill (pre_b, V, 5, -1, 1);
  tg_fill (pre_x, N * D, 6, -1, 1);
  for (int nulls = 0; nulls < 2; nulls++)
    {
      double d_W[V * D], d_b[V], d_x[N * D];
      memcpy (d_W, pre_W, sizeof d_W);
      memcpy (d_b, pre_b, sizeof d_b);
      memcpy (d_x, pre_x, sizeof d_x);
      /* The second time no gradient of x is wanted.  */
      xent_rows_grad (N, D, V, y, x, W, b, nulls ? NULL : d_x, d_W, d_b,
                      1.0);
      check_added ("W", W, V * D, loss_rows, d_W, pre_W);
      check_added ("b", b, V, loss_rows, d_b, pre_b);
      if (!nulls)
        check_added ("x", x, N * D, loss_rows, d_x, pre_x);
    }

  int Tf = 4, Vf = 3;
  float *a = tg_alloc_f (Tf), *c = tg_alloc_f (Vf);
  tg_fill_f (a, Tf, 7, -1, 1);
  tg_fill_f (c, Vf, 8, -1, 1);
  TG_GRADCHECK (pick_const, &Tf, &Vf, a, c);
  TG_GRADCHECK_NULL (pick_const, "a", &Tf, &Vf, a, c);

  tg_fill (emb, V * E, 9, -1, 1);
  tg_fill (W2, V * E, 10, -1, 1);
  double d_emb[V * E] = { 0 }, d_W2[V * E] = { 0 };
  double z_emb[V * E] = { 0 }, z_W2[V * E] = { 0 };
  batch_next_grad (B, T, V, E, tok, emb, W2, d_emb, d_W2, 1.0);
  check_added ("emb", emb, V * E, loss_batch, d_emb, z_emb);
  check_added ("W2", W2, V * E, loss_batch, d_W2, z_W2);

  for (int i = 0; i < N * D; i++)
    xf[i] = (float) x[i];
  for (int i = 0; i < V * D; i++)
    Wf[i] = (float) W[i];
  float f_x[N * D] = { 0 }, f_W[V * D] = { 0 };
  xent_shift_grad (N, D, V, y, xf, Wf, f_x, f_W, 1.0f);
  tg_fd_check_f ("x", xf, N * D, loss_shift, NULL, f_x, TG_RTOL_F,
                 TG_ATOL_F);
  tg_fd_check_f ("W", Wf, V * D, loss_shift, NULL, f_W, TG_RTOL_F,
                 TG_ATOL_F);
  return tg_exit ();
}
