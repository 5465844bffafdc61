/* { dg-do run } */
/* Per-row scratch as attention code fills it.  (1) The query of
   position t scaled once into a scratch row qs[], then every score a dot
   product of qs with a key, and the row's maximum and log-sum-exp over
   the scores (the scores' sum is a reduction nested in another, which
   is computed by a stage of its own; it must stay inside the loop over
   t, since qs changes with t although its index does not):
     y[t] = m + log (sum_u exp (s_u - m)),  s_u = sum_i 2 q[t][i] k[u][i],
     d_q[t][i] += 2 d_y[t] sum_u softmax (s)_u k[u][i], d_k likewise.
   (2) Every score of the row computed into the scratch w[T], only the
   causal part u <= t summed (float):
     y[t] = sum_{u <= t} exp (x[t] x[u]).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
lse_scores (int T, int d, const double *q, const double *k, double *y)
{
  for (int t = 0; t < T; t++)
    {
      double qs[d];
      for (int i = 0; i < d; i++)
        qs[i] = q[t * d + i] * 2.0;
      double m = -1e300;
      for (int u = 0; u < T; u++)
        {
          double a = 0;
          for (int i = 0; i < d; i++)
            a += qs[i] * k[u * d + i];
          m = fmax (m, a);
        }
      double z = 0;
      for (int u = 0; u < T; u++)
        {
          double a = 0;
          for (int i = 0; i < d; i++)
            a += qs[i] * k[u * d + i];
          z += exp (a - m);
        }
      y[t] = m + log (z);
    }
}

__attribute__ ((differentiable))
void
causal_part (int T, const float *x, float *y)
{
  for (int t = 0; t < T; t++)
    {
      float w[T];
      for (int u = 0; u < T; u++)
        w[u] = x[t] * x[u];
      float z = 0;
      for (int u = 0; u <= t; u++)
        z += expf (w[u]);
      y[t] = z;
    }
}

int
main (void)
{
  int T = 4, d = 3;
  double *q = tg_alloc (T * d), *k = tg_alloc (T * d), *y = tg_alloc (T);
  tg_fill (q, T * d, 1, -1, 1);
  tg_fill (k, T * d, 2, -1, 1);
  TG_GRADCHECK (lse_scores, &T, &d, q, k, y);
  TG_GRADCHECK_NULL (lse_scores, "q", &T, &d, q, k, y);

  int Tf = 5;
  float *x = tg_alloc_f (Tf), *yf = tg_alloc_f (Tf);
  tg_fill_f (x, Tf, 3, -1, 1);
  TG_GRADCHECK (causal_part, &Tf, x, yf);
  return tg_exit ();
}
