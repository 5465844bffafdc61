/* { dg-do run } */
/* A softmax over padded rows with its cross-entropy loss in the same
   row loop, as C ports of a training step write it: the loss reads the
   probability of the row's target through the integer array target[n],
   after the loop that normalized the row.  The target lies in the row
   (0 <= target[n] < V), so the read sees the row this iteration wrote.
   With p the row's softmax over its first V entries and g the incoming
   adjoints (gp of probs, gl of losses),
     d_logits[n][j] += p[j] (gp[j] - gl[n] [j == t] / p[t]
                             - sum_j' p[j'] (gp[j'] - gl[n] [j' == t] / p[t]))
   for j < V; the padding gets nothing.  Checked by hand (a kernel that
   reads through an index array has no descriptor): central differences
   of L = sum cl[n] losses[n] + sum cp[k] probs[k], accumulation into a
   pre-filled d_logits, inputs and incoming adjoints untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
crossent (int N, int V, int Vp, const double *logits, const int *target,
          double *probs, double *losses)
{
  for (int n = 0; n < N; n++)
    {
      const double *lr = logits + n * Vp;
      double *pr = probs + n * Vp;
      double mx = -1e300;
      for (int j = 0; j < V; j++)
        if (lr[j] > mx)
          mx = lr[j];
      double s = 0;
      for (int j = 0; j < V; j++)
        {
          pr[j] = exp (lr[j] - mx);
          s += pr[j];
        }
      for (int j = 0; j < V; j++)
        pr[j] /= s;
      for (int j = V; j < Vp; j++)
        pr[j] = 0;
      losses[n] = -log (pr[target[n]]);
    }
}

enum { N = 4, V = 5, Vp = 7 };

struct ctx
{
  const int *target;
  double *logits, *cp, *cl;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  double probs[N * Vp], losses[N];
  crossent (N, V, Vp, k->logits, k->target, probs, losses);
  return tg_dot (k->cp, probs, N * Vp) + tg_dot (k->cl, losses, N);
}

int
main (void)
{
  int target[N] = { 2, 0, 4, 1 };
  double *logits = tg_alloc (N * Vp), *probs = tg_alloc (N * Vp);
  double *losses = tg_alloc (N), *cp = tg_alloc (N * Vp), *cl = tg_alloc (N);
  double *d_logits = tg_alloc (N * Vp);
  tg_fill (logits, N * Vp, 1, -2, 2);
  tg_fill (cp, N * Vp, 2, -1, 1);
  tg_fill (cl, N, 3, -1, 1);
  tg_fill (d_logits, N * Vp, 4, -1, 1);
  crossent (N, V, Vp, logits, target, probs, losses);
  double *l0 = tg_dup (logits, N * Vp), *pre = tg_dup (d_logits, N * Vp);
  double *d_probs = tg_dup (cp, N * Vp), *d_losses = tg_dup (cl, N);
  crossent_grad (N, V, Vp, logits, target, probs, losses, d_logits, d_probs,
                 d_losses);
  CHECK_SAME (logits, l0, N * Vp * sizeof (double));
  CHECK_SAME (d_probs, cp, N * Vp * sizeof (double));
  CHECK_SAME (d_losses, cl, N * sizeof (double));
  tg_sub (d_logits, d_logits, pre, N * Vp);
  struct ctx k = { target, logits, cp, cl };
  tg_fd_check ("logits", logits, N * Vp, loss, &k, d_logits, TG_RTOL,
               TG_ATOL);
  return tg_exit ();
}
