/* { dg-do run } */
/* A softmax normalized by the reciprocal of its sum, taken once per row
   (inv = 1 / s; p[j] *= inv), as code written for speed does: float,
   rows through a pointer; double with the maximum started at the row's
   first element, the sums in a local array of the rows and the rows
   scaled by 1 / s[n] in a nest of their own; and the exponentials
   stored and summed into an output in one loop, also with a second sum
   beside it.  The
   gradient reads the stored probabilities, d_x = p * (d_p - sum (p *
   d_p)):
   the value p.v1 * (1 / s) is p also among the factors of a product, so
   no exponential, maximum or sum is computed again.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
smax_inv (int N, int V, const float *x, float *p)
{
  for (int n = 0; n < N; n++)
    {
      const float *xr = x + n * V;
      float *pr = p + n * V;
      float mx = -1e30f;
      for (int j = 0; j < V; j++)
        mx = fmaxf (mx, xr[j]);
      float s = 0;
      for (int j = 0; j < V; j++)
        {
          pr[j] = expf (xr[j] - mx);
          s += pr[j];
        }
      float inv = 1.0f / s;
      for (int j = 0; j < V; j++)
        pr[j] *= inv;
    }
}

__attribute__ ((differentiable))
void
smax_inv_rows (int N, int V, const double *x, double *p)
{
  double s[N];
  for (int n = 0; n < N; n++)
    {
      double mx = x[n * V];
      for (int j = 1; j < V; j++)
        if (x[n * V + j] > mx)
          mx = x[n * V + j];
      s[n] = 0;
      for (int j = 0; j < V; j++)
        {
          p[n * V + j] = exp (x[n * V + j] - mx);
          s[n] += p[n * V + j];
        }
    }
  for (int n = 0; n < N; n++)
    for (int j = 0; j < V; j++)
      p[n * V + j] = p[n * V + j] * (1.0 / s[n]);
}

/* The exponentials stored and their sum added into an output in one
   loop (the update moves to a loop of its own, then is a reduction).  */
__attribute__ ((differentiable))
void
exp_rows (int N, int V, const double *x, double *e, double *s)
{
  for (int n = 0; n < N; n++)
    {
      s[n] = 0;
      for (int j = 0; j < V; j++)
        {
          e[n * V + j] = exp (x[n * V + j]);
          s[n] += e[n * V + j];
        }
    }
}

/* Two sums updated beside the stored exponentials (each update moves to
   a loop of its own in turn).  */
__attribute__ ((differentiable))
void
exp_moments (int N, int V, const double *x, double *e, double *s, double *q)
{
  for (int n = 0; n < N; n++)
    {
      s[n] = 0;
      q[n] = 0;
      for (int j = 0; j < V; j++)
        {
          e[n * V + j] = exp (x[n * V + j]);
          s[n] += e[n * V + j];
          q[n] += e[n * V + j] * x[n * V + j];
        }
    }
}

int
main (void)
{
  int N = 3, V = 5;
  float *x = tg_alloc_f (N * V), *p = tg_alloc_f (N * V);
  tg_fill_f (x, N * V, 1, -2, 2);
  TG_GRADCHECK (smax_inv, &N, &V, x, p);
  double *xd = tg_alloc (N * V), *pd = tg_alloc (N * V);
  tg_fill (xd, N * V, 2, -2, 2);
  TG_GRADCHECK (smax_inv_rows, &N, &V, xd, pd);
  double *sd = tg_alloc (N);
  TG_GRADCHECK (exp_rows, &N, &V, xd, pd, sd);
  double *qd = tg_alloc (N);
  TG_GRADCHECK (exp_moments, &N, &V, xd, pd, sd, qd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "cancel: mx gets no adjoint" 2 } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "max \\(" } } */
