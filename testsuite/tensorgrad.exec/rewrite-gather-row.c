/* { dg-do run } */
/* How to rewrite (README): a read through an index array of what the
   row loop writes.  The rewrites of tensorgrad.err/rewrite-gather-row.c:
   crossent reads the target in the row the iteration wrote,
   probs[n * V + target[n]]; crossent_after takes the losses in a loop
   of its own, after every row is written, through the same flat pick.
   Checked: probs and losses equal the original's (compiled here as
   plain C) for pick[n] = n * V + target[n], and every component of
   both gradients against central differences (gathers: no descriptor,
   checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define crossent crossent_orig
#include "tensorgrad.err/rewrite-gather-row.c"
#undef crossent
#undef differentiable

__attribute__ ((differentiable))
void
crossent (int N, int V, const double *logits, const int *target,
          double *probs, double *losses)
{
  for (int n = 0; n < N; n++)
    {
      double mx = -INFINITY;
      for (int j = 0; j < V; j++)
        mx = fmax (mx, logits[n * V + j]);
      double s = 0;
      for (int j = 0; j < V; j++)
        {
          probs[n * V + j] = exp (logits[n * V + j] - mx);
          s += probs[n * V + j];
        }
      for (int j = 0; j < V; j++)
        probs[n * V + j] /= s;
      losses[n] = -log (probs[n * V + target[n]]);
    }
}

__attribute__ ((differentiable))
void
crossent_after (int N, int V, const double *logits, const int *pick,
                double *probs, double *losses)
{
  for (int n = 0; n < N; n++)
    {
      double mx = -INFINITY;
      for (int j = 0; j < V; j++)
        mx = fmax (mx, logits[n * V + j]);
      double s = 0;
      for (int j = 0; j < V; j++)
        {
          probs[n * V + j] = exp (logits[n * V + j] - mx);
          s += probs[n * V + j];
        }
      for (int j = 0; j < V; j++)
        probs[n * V + j] /= s;
    }
  for (int n = 0; n < N; n++)
    losses[n] = -log (probs[pick[n]]);
}

enum { N = 4, V = 5 };
static const int target[N] = { 3, 0, 4, 3 };
static int pick[N];
static double logits[N * V], probs[N * V], losses[N], c[N], cp[N * V];
static int after;

/* L = sum c losses + sum cp probs.  */
static double
loss (void *unused)
{
  (void) unused;
  if (after)
    crossent_after (N, V, logits, pick, probs, losses);
  else
    crossent (N, V, logits, target, probs, losses);
  return tg_dot (c, losses, N) + tg_dot (cp, probs, N * V);
}

int
main (void)
{
  for (int n = 0; n < N; n++)
    pick[n] = n * V + target[n];
  tg_fill (logits, N * V, 1, -2, 2);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (cp, N * V, 3, -1, 1);
  double p0[N * V], l0[N];
  crossent_orig (N, V, logits, pick, p0, l0);
  for (after = 0; after < 2; after++)
    {
      loss (NULL);
      for (int k = 0; k < N * V; k++)
        CHECK_NEAR_AT (probs[k], p0[k], 1e-15, 0, k);
      for (int n = 0; n < N; n++)
        CHECK_NEAR_AT (losses[n], l0[n], 1e-15, 0, n);
      double d_logits[N * V] = { 0 }, d_probs[N * V], d_losses[N];
      memcpy (d_probs, cp, sizeof cp);
      memcpy (d_losses, c, sizeof c);
      if (after)
        crossent_after_grad (N, V, logits, pick, probs, losses, d_logits,
                             d_probs, d_losses);
      else
        crossent_grad (N, V, logits, target, probs, losses, d_logits,
                       d_probs, d_losses);
      tg_fd_check ("logits", logits, N * V, loss, NULL, d_logits, TG_RTOL,
                   TG_ATOL);
    }
  return tg_exit ();
}
