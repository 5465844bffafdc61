/* { dg-do run } */
/* A softmax kept in a local array (normalized in place), each row's
   log-sum-exp stored, and a cross-entropy read through the targets in a
   nest of its own.  The adjoint of the gathered read is a point select
   (j == target ? ... : 0) that the fold pass's sum puts inside a
   quotient by the row's sum, d1 + sel / z: no addend of the product's
   sum is a select itself.  The simplifier (te_simplify_points) rebuilt
   such a sum reassociated, and the next call reassociated it back: cc1
   overflowed its stack (found by the fuzzer, seed 91 kernel 933).  Now
   the sum stays as it is, and the gradient is checked here by hand (an
   index array: no descriptor) against central differences of
   L = sum cl losses + sum cs lse, double and float, with the targets at
   both ends of the row.  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
lse_xent (int N, const double *x, double *lse, const int *target,
          double *losses)
{
  double p[N * 3];
  for (int b = 0; b < N; b++)
    {
      double mx = -1e30;
      for (int j = 0; j < 3; j++)
        mx = x[b * 3 + j] > mx ? x[b * 3 + j] : mx;
      double z = 0.0;
      for (int j = 0; j < 3; j++)
        {
          p[b * 3 + j] = exp (x[b * 3 + j] - mx);
          z += p[b * 3 + j];
        }
      for (int j = 0; j < 3; j++)
        p[b * 3 + j] /= z;
      lse[b] = mx + log (z);
    }
  for (int b = 0; b < N; b++)
    losses[b] = -log (p[b * 3 + target[b]]);
}

__attribute__ ((differentiable))
void
lse_xent_f (int N, int V, const float *x, float *lse, const int *target,
            float *losses)
{
  float p[N * V];
  for (int b = 0; b < N; b++)
    {
      const float *xr = x + b * V;
      float *pr = p + b * V;
      float mx = -1e30f;
      for (int j = 0; j < V; j++)
        mx = fmaxf (mx, xr[j]);
      float z = 0.0f;
      for (int j = 0; j < V; j++)
        {
          pr[j] = expf (xr[j] - mx);
          z += pr[j];
        }
      for (int j = 0; j < V; j++)
        pr[j] /= z;
      lse[b] = mx + logf (z);
    }
  for (int b = 0; b < N; b++)
    losses[b] = -logf (p[b * V + target[b]]);
}

enum { N = 5, V = 7 };

struct dctx { const int *target; double *x; const double *cs, *cl; };

static double
dloss (void *v)
{
  struct dctx *k = v;
  double lse[N], losses[N];
  lse_xent (N, k->x, lse, k->target, losses);
  return tg_dot (k->cs, lse, N) + tg_dot (k->cl, losses, N);
}

static void
check_double (void)
{
  int target[N] = { 0, 2, 1, 2, 0 };
  double *x = tg_alloc (N * 3), *lse = tg_alloc (N), *losses = tg_alloc (N);
  double *cs = tg_alloc (N), *cl = tg_alloc (N), *d_x = tg_alloc (N * 3);
  tg_fill (x, N * 3, 1, -2, 2);
  tg_fill (cs, N, 2, -1, 1);
  tg_fill (cl, N, 3, -1, 1);
  tg_fill (d_x, N * 3, 4, -1, 1);
  lse_xent (N, x, lse, target, losses);
  double *pre = tg_dup (d_x, N * 3);
  double *d_lse = tg_dup (cs, N), *d_losses = tg_dup (cl, N);
  lse_xent_grad (N, x, lse, target, losses, d_x, d_lse, d_losses);
  CHECK_SAME (d_lse, cs, N * sizeof (double));
  CHECK_SAME (d_losses, cl, N * sizeof (double));
  tg_sub (d_x, d_x, pre, N * 3);
  struct dctx k = { target, x, cs, cl };
  tg_fd_check ("x", x, N * 3, dloss, &k, d_x, TG_RTOL, TG_ATOL);

  /* The loss's adjoint NULL: only the log-sum-exp's.  */
  memset (d_x, 0, N * 3 * sizeof (double));
  lse_xent_grad (N, x, lse, target, losses, d_x, d_lse, NULL);
  double zero[N] = { 0 };
  k.cl = zero;
  tg_fd_check ("x", x, N * 3, dloss, &k, d_x, TG_RTOL, TG_ATOL);
}

struct fctx { const int *target; float *x; const float *cs, *cl; };

static double
floss (void *v)
{
  struct fctx *k = v;
  float lse[N], losses[N];
  lse_xent_f (N, V, k->x, lse, k->target, losses);
  return tg_dot_f (k->cs, lse, N) + tg_dot_f (k->cl, losses, N);
}

static void
check_float (void)
{
  int target[N] = { 6, 0, 3, 6, 1 };
  float *x = tg_alloc_f (N * V), *lse = tg_alloc_f (N);
  float *losses = tg_alloc_f (N), *cs = tg_alloc_f (N), *cl = tg_alloc_f (N);
  float *d_x = tg_alloc_f (N * V);
  tg_fill_f (x, N * V, 5, -2, 2);
  tg_fill_f (cs, N, 6, -1, 1);
  tg_fill_f (cl, N, 7, -1, 1);
  lse_xent_f (N, V, x, lse, target, losses);
  float *d_lse = tg_dup_f (cs, N), *d_losses = tg_dup_f (cl, N);
  lse_xent_f_grad (N, V, x, lse, target, losses, d_x, d_lse, d_losses);
  struct fctx k = { target, x, cs, cl };
  tg_fd_check_f ("x", x, N * V, floss, &k, d_x, TG_RTOL_F, TG_ATOL_F);
}

int
main (void)
{
  check_double ();
  check_float ();
  return tg_exit ();
}
