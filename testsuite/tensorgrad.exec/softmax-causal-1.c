/* { dg-do run } */
/* A causal softmax over the rows of a T x T score matrix, as attention
   writes it: row t's maximum, exponentials and sum run to u <= t, then a
   loop over the whole row divides the first t + 1 entries and zeroes the
   rest.  That loop writes every element the exponentials' loop wrote and
   more, reading the old values only where u <= t: the exponentials keep
   an array of their own (version:), and the row loop reads the element
   the same iteration wrote.  y = softmax of the row's first t + 1 scores:
   d_s[t][u] += y[u] (d_p[t][u] - sum_{v <= t} d_p[t][v] y[v]) for u <= t.
   Float with the maximum by compare-and-assign, double with fmax and the
   scores offset into a larger buffer.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
causal_softmax (int T, const float *s, float *p)
{
  for (int t = 0; t < T; t++)
    {
      float mx = -1e30f;
      for (int u = 0; u <= t; u++)
        if (s[t * T + u] > mx)
          mx = s[t * T + u];
      float z = 0;
      for (int u = 0; u <= t; u++)
        {
          float e = expf (s[t * T + u] - mx);
          z += e;
          p[t * T + u] = e;
        }
      for (int u = 0; u < T; u++)
        p[t * T + u] = u <= t ? p[t * T + u] / z : 0.0f;
    }
}

__attribute__ ((differentiable))
void
causal_softmax_d (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double mx = -1e300;
      for (int u = 0; u < t + 1; u++)
        mx = fmax (mx, s[t * T + u]);
      double z = 0;
      for (int u = 0; u < t + 1; u++)
        {
          p[t * T + u] = exp (s[t * T + u] - mx);
          z += p[t * T + u];
        }
      for (int u = 0; u < T; u++)
        p[t * T + u] = t >= u ? p[t * T + u] / z : 0.0;
    }
}

int
main (void)
{
  int T = 5;
  float *s = tg_alloc_f (T * T), *p = tg_alloc_f (T * T);
  tg_fill_f (s, T * T, 1, -2, 2);
  TG_GRADCHECK (causal_softmax, &T, s, p);

  double *sbuf = tg_alloc (T * T + 3), *pd = tg_alloc (T * T);
  tg_fill (sbuf, T * T + 3, 2, -2, 2);
  TG_GRADCHECK (causal_softmax_d, &T, sbuf + 3, pd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "version: p, written again by a later loop nest, keeps the values of the earlier one in p.v1" } } */
