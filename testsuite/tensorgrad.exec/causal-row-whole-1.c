/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A causal row normalized over the whole row, in place: the
   exponentials e[u] = exp (s[u] - mx) for u <= t and the tail zeroed
   (after them, or first), z = sum over the whole row, then every element
   of the row divided by z, the tail's 0 / z too.  p[t][u] = e[u] / z for
   u <= t, 0 above:  d_s[t][u] += p[t][u] (d_p[t][u] - sum_v p[t][v]
   d_p[t][v]) for u <= t.
   csfull:  float, the tail zeroed after the exponentials, rows through
            pointers;
   csfirst: double, the tail zeroed first, a temperature a (d_a from the
            scores' scale), and o[t] = sum_u p[t][u] v[u] read after the
            row (d_v[u] += sum_t p[t][u] d_o[t]).
   cssq:    double, each element squared over z (the exponentials
            zeroed above t, then p[u] = p[u] * p[u] / z over the whole
            row), which needs the exponentials themselves:
            d_e[u] = 2 e[u] d_p[u] / z - sum_v e[v]^2 d_p[v] / z^2,
            d_s[u] += e[u] d_e[u] for u <= t.
   The dump says the two loops are one, which the normalization
   rewrites.  T = 5, 1.  */
/* { dg-final { scan-tensorgrad-dump "version: the two loops writing p one after the other along a row are one, which a later loop rewrites" } } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
csfull (int T, const float *s, float *p)
{
  for (int t = 0; t < T; t++)
    {
      float *pr = p + t * T;
      const float *sr = s + t * T;
      float mx = -1e30f;
      for (int u = 0; u <= t; u++)
        mx = fmaxf (mx, sr[u]);
      for (int u = 0; u <= t; u++)
        pr[u] = expf (sr[u] - mx);
      for (int u = t + 1; u < T; u++)
        pr[u] = 0;
      float z = 0;
      for (int u = 0; u < T; u++)
        z += pr[u];
      for (int u = 0; u < T; u++)
        pr[u] /= z;
    }
}

__attribute__ ((differentiable))
void
csfirst (int T, double a, const double *s, const double *v, double *p,
         double *o)
{
  for (int t = 0; t < T; t++)
    {
      for (int u = t + 1; u < T; u++)
        p[t * T + u] = 0;
      for (int u = 0; u <= t; u++)
        p[t * T + u] = exp (a * s[t * T + u]);
      double z = 0;
      for (int u = 0; u < T; u++)
        z += p[t * T + u];
      for (int u = 0; u < T; u++)
        p[t * T + u] = p[t * T + u] / z;
      double acc = 0;
      for (int u = 0; u < T; u++)
        acc += p[t * T + u] * v[u];
      o[t] = acc;
    }
}

__attribute__ ((differentiable))
void
cssq (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double *pr = p + t * T;
      for (int u = 0; u <= t; u++)
        pr[u] = exp (s[t * T + u]);
      for (int u = t + 1; u < T; u++)
        pr[u] = 0;
      double z = 0;
      for (int u = 0; u < T; u++)
        z += pr[u];
      for (int u = 0; u < T; u++)
        pr[u] = pr[u] * pr[u] / z;
    }
}

int
main (void)
{
  static const int Ts[] = { 5, 1 };
  for (int q = 0; q < 2; q++)
    {
      int T = Ts[q];
      double a = 0.7;
      float *sf = tg_alloc_f (T * T), *pf = tg_alloc_f (T * T);
      tg_fill_f (sf, T * T, 1 + q, -2, 2);
      TG_GRADCHECK (csfull, &T, sf, pf);

      double *s = tg_alloc (T * T), *v = tg_alloc (T), *p = tg_alloc (T * T);
      double *o = tg_alloc (T);
      tg_fill (s, T * T, 11 + q, -2, 2);
      tg_fill (v, T, 21 + q, -1, 1);
      TG_GRADCHECK (csfirst, &T, &a, s, v, p, o);
      TG_GRADCHECK_NULL (csfirst, "v", &T, &a, s, v, p, o);
      TG_GRADCHECK (cssq, &T, s, p);
      free (sf), free (pf), free (s), free (v), free (p), free (o);
    }
  return tg_exit ();
}
