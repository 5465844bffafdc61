/* { dg-do run } */
/* How to rewrite (README): a scratch row larger than what each position
   writes.  The rewrite of tensorgrad.err/rewrite-scratch-size.c: the
   row has the V elements the loop writes, double z[V], so the read at
   the target names an element its position wrote; expand.c gives the
   row a copy per position.
     z_t = by + Why hs_t,  ret = 1/T sum_t (log sum_v exp (z_t[v])
                                            - z_t[tok_{t+1}]).
   Checked: the loss equals the original's (compiled here as plain C),
   and every component of the gradient against central differences (the
   kernel gathers through tok, so it has no descriptor: checked by hand),
   also with the shadow of hs NULL.  */

#include "tg-test.h"

#define differentiable unused
#define next_token next_token_orig
#include "tensorgrad.err/rewrite-scratch-size.c"
#undef next_token
#undef differentiable

__attribute__ ((differentiable))
double
next_token (int T, int V, int H, const int *tok, const double *hs,
            const double *Why, const double *by)
{
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      double z[V];
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * hs[t * H + j];
          z[v] = a;
        }
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[v]);
      loss += log (se) - z[tok[t + 1]];
    }
  return loss / T;
}

enum { T = 4, V = 5, H = 3 };
static const int tok[T + 1] = { 1, 4, 0, 4, 2 };
static double hs[T * H], Why[V * H], by[V];

static double
loss (void *unused)
{
  (void) unused;
  return next_token (T, V, H, tok, hs, Why, by);
}

int
main (void)
{
  tg_fill (hs, T * H, 1, -1, 1);
  tg_fill (Why, V * H, 2, -1, 1);
  tg_fill (by, V, 3, -0.5, 0.5);
  CHECK_NEAR (loss (NULL), next_token_orig (T, V, H, tok, hs, Why, by),
              1e-14, 0);
  for (int nulls = 0; nulls < 2; nulls++)
    {
      double d_hs[T * H] = { 0 }, d_Why[V * H] = { 0 }, d_by[V] = { 0 };
      next_token_grad (T, V, H, tok, hs, Why, by, nulls ? NULL : d_hs,
                       d_Why, d_by, 1.0);
      if (!nulls)
        tg_fd_check ("hs", hs, T * H, loss, NULL, d_hs, TG_RTOL, TG_ATOL);
      tg_fd_check ("Why", Why, V * H, loss, NULL, d_Why, TG_RTOL, TG_ATOL);
      tg_fd_check ("by", by, V, loss, NULL, d_by, TG_RTOL, TG_ATOL);
    }
  return tg_exit ();
}
