/* { dg-do run } */
/* Softmax and cross-entropy as llm.c writes them, float: a softmax over
   rows of Vp logits of which V are real (b, t loops, a pointer to each
   row, the pad zeroed by a loop of its own), then the losses in a nest of
   their own, -log (probs[target]).  The adjoint of that gathered read
   lands on one element of each row: the points pass reads it as a select
   in the row's loop, (j == target ? -d_loss / p[target] : 0), so the
   gradient has no temporary of the whole tensor's size (the dump scan:
   the backward declares no array of B*T*Vp elements).  It requires each
   target within its row's real entries, which a child process calls it
   without: f_grad aborts with the requirement on stderr.  The fold pass
   and the simplifier's rules for such selects then give the expert's
   form, d_logits += p (d_probs + d1) over the row, then
   d_logits[target] -= d_loss outside the row's loop (onehot): two loops
   over a row with no comparison in them, no division by p[target] (the
   dump scans).

   Checked by hand (an index array means no descriptor): central
   differences of L = sum cl losses + sum cp probs, with d_probs given and
   NULL, accumulation into a pre-filled d_logits, and the double kernel
   with the loss in the softmax's own row loop, at a target 0 and V - 1
   (the ends of the row).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
xent_forward (float *losses, float *probs, const float *logits,
              const int *targets, int B, int T, int V, int Vp)
{
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      {
        const float *logits_bt = logits + b * T * Vp + t * Vp;
        float *probs_bt = probs + b * T * Vp + t * Vp;
        float maxval = -10000.0f;
        for (int i = 0; i < V; i++)
          if (logits_bt[i] > maxval)
            maxval = logits_bt[i];
        float sum = 0.0f;
        for (int i = 0; i < V; i++)
          {
            probs_bt[i] = expf (logits_bt[i] - maxval);
            sum += probs_bt[i];
          }
        for (int i = 0; i < V; i++)
          probs_bt[i] /= sum;
        for (int i = V; i < Vp; i++)
          probs_bt[i] = 0.0f;
      }
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      {
        const float *probs_bt = probs + b * T * Vp + t * Vp;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf (probs_bt[ix]);
      }
}

__attribute__ ((differentiable))
void
xent_rows (int N, int V, int Vp, const double *logits, const int *target,
           double *probs, double *losses)
{
  for (int n = 0; n < N; n++)
    {
      const double *lr = logits + n * Vp;
      double *pr = probs + n * Vp;
      double mx = lr[0];
      for (int j = 1; j < V; j++)
        mx = fmax (mx, lr[j]);
      double s = 0;
      for (int j = 0; j < V; j++)
        s += pr[j] = exp (lr[j] - mx);
      double inv = 1 / s;
      for (int j = 0; j < V; j++)
        pr[j] *= inv;
      for (int j = V; j < Vp; j++)
        pr[j] = 0;
      losses[n] = -log (pr[target[n]]);
    }
}

enum { B = 2, T = 3, V = 5, Vp = 8, BT = B * T, L = BT * Vp };

struct fctx
{
  const int *targets;
  float *logits;
  const float *cp, *cl;
};

static double
floss (void *v)
{
  struct fctx *k = v;
  float probs[L], losses[BT];
  xent_forward (losses, probs, k->logits, k->targets, B, T, V, Vp);
  return tg_dot_f (k->cp, probs, L) + tg_dot_f (k->cl, losses, BT);
}

struct dctx
{
  const int *target;
  double *logits;
  const double *cp, *cl;
};

static double
dloss (void *v)
{
  struct dctx *k = v;
  double probs[L], losses[BT];
  xent_rows (BT, V, Vp, k->logits, k->target, probs, losses);
  return tg_dot (k->cp, probs, L) + tg_dot (k->cl, losses, BT);
}

static void
check_float (int with_probs)
{
  int targets[BT] = { 2, 0, 4, 1, 3, 4 };
  float *logits = tg_alloc_f (L), *probs = tg_alloc_f (L);
  float *losses = tg_alloc_f (BT), *cp = tg_alloc_f (L), *cl = tg_alloc_f (BT);
  float *d_logits = tg_alloc_f (L);
  tg_fill_f (logits, L, 1, -2, 2);
  tg_fill_f (cl, BT, 3, -1, 1);
  if (with_probs)
    tg_fill_f (cp, L, 2, -1, 1);
  tg_fill_f (d_logits, L, 4, -1, 1);
  xent_forward (losses, probs, logits, targets, B, T, V, Vp);
  float *pre = tg_dup_f (d_logits, L), *d_losses = tg_dup_f (cl, BT);
  float *d_probs = with_probs ? tg_dup_f (cp, L) : NULL;
  xent_forward_grad (losses, probs, logits, targets, B, T, V, Vp, d_losses,
                     d_probs, d_logits);
  if (d_probs)
    CHECK_SAME (d_probs, cp, L * sizeof (float));
  CHECK_SAME (d_losses, cl, BT * sizeof (float));
  tg_sub_f (d_logits, d_logits, pre, L);
  struct fctx k = { targets, logits, cp, cl };
  tg_fd_check_f ("logits", logits, L, floss, &k, d_logits, TG_RTOL_F,
                 TG_ATOL_F);
}

static void
check_double (void)
{
  int target[BT] = { 0, 4, 2, 4, 0, 1 };
  double *logits = tg_alloc (L), *probs = tg_alloc (L), *losses = tg_alloc (BT);
  double *cp = tg_alloc (L), *cl = tg_alloc (BT), *d_logits = tg_alloc (L);
  tg_fill (logits, L, 5, -2, 2);
  tg_fill (cp, L, 6, -1, 1);
  tg_fill (cl, BT, 7, -1, 1);
  xent_rows (BT, V, Vp, logits, target, probs, losses);
  double *d_probs = tg_dup (cp, L), *d_losses = tg_dup (cl, BT);
  xent_rows_grad (BT, V, Vp, logits, target, probs, losses, d_logits,
                  d_probs, d_losses);
  struct dctx k = { target, logits, cp, cl };
  tg_fd_check ("logits", logits, L, dloss, &k, d_logits, TG_RTOL, TG_ATOL);
}

/* xent_rows_grad with a target in the pad (V), in a child: it must
   abort with the requirement on stderr.  */
static void
refused_target (void)
{
  int target[BT] = { 0, 1, V, 2, 3, 4 };
  double logits[L], probs[L], losses[BT], d_logits[L] = { 0 };
  double d_losses[BT];
  tg_fill (logits, L, 1, -2, 2);
  tg_fill (d_losses, BT, 2, -1, 1);
  xent_rows (BT, V, Vp, logits, target, probs, losses);
  xent_rows_grad (BT, V, Vp, logits, target, probs, losses, d_logits, NULL,
                  d_losses);
}

static void
check_refused_target (void)
{
  char buf[1024];
  CHECK (tg_child_aborts (refused_target, buf, sizeof buf));
  CHECK (strstr (buf, "tensorgrad: xent_rows_grad: the index arrays do not "
                      "meet what this gradient requires: every entry of "
                      "'target' it reads lies in [0, V), in its own row\n")
         != NULL);
}

int
main (void)
{
  check_float (1);
  check_float (0);
  check_double ();
  check_refused_target ();
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-backward-not "e_probs" } } */
/* { dg-final { scan-tensorgrad-dump-times "points: e_probs, one element per row, is a select where it is read" 2 } } */
/* The simplifier's rules then make the loss's part p - onehot: no
   division by the target's probability, no exponential recomputed.  */
/* { dg-final { scan-tensorgrad-backward-not "/ probs" } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(" } } */
/* { dg-final { scan-tensorgrad-backward "d_logits\\\[Vp \\* n \\+ \\(long\\) target\\\[n\\\]\\\] \\+= -d_losses\\\[n\\\];" } } */
/* { dg-final { scan-tensorgrad-backward-not "\\? -d_losses" } } */
/* { dg-final { scan-tensorgrad-dump-times "onehot: the term of d_logits at one element of the loop over" 2 } } */
