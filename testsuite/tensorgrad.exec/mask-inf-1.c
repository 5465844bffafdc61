/* { dg-do run } */
/* Infinite constants in the kernel: attention as a port of PyTorch's
   masked_fill writes it, the scores above the diagonal set to -INFINITY
   and the softmax over the whole row (exp (-inf - max) = 0 takes them
   out; the maximum starts at -INFINITY), float; and a double sum of
   exp (x - c) whose masked terms are exp (-inf).  The gradient must keep
   the infinities (it once built them as 0: a wrong d_c, d_q and d_k).
   The score row is an output holding -inf, so its own adjoint is not
   part of the checked loss (a NULL shadow).  With y the row's softmax,
   d_s[u] = y[u] (g[u] - sum_u' y[u'] g[u']), g[u] = sum_i d_out[i] v[u][i];
   f: d_x[u] += exp (x[u] - c) for x[u] > 0, d_c -= the same summed.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
attn_mf (int T, int hs, const float *q, const float *k, const float *v,
         float *att, float *out)
{
  const float scale = 1.0f / sqrtf ((float) hs);
  for (int t = 0; t < T; t++)
    {
      float *a = att + t * T;
      for (int u = 0; u < T; u++)
        {
          float s = 0.0f;
          for (int i = 0; i < hs; i++)
            s += q[t * hs + i] * k[u * hs + i];
          a[u] = u > t ? -INFINITY : s * scale;
        }
      float mx = -INFINITY;
      for (int u = 0; u < T; u++)
        mx = fmaxf (mx, a[u]);
      float z = 0.0f;
      for (int u = 0; u < T; u++)
        z += expf (a[u] - mx);
      for (int i = 0; i < hs; i++)
        {
          float acc = 0.0f;
          for (int u = 0; u < T; u++)
            acc += expf (a[u] - mx) / z * v[u * hs + i];
          out[t * hs + i] = acc;
        }
    }
}

__attribute__ ((differentiable))
double
f (int n, const double *x, double c)
{
  double z = 0;
  for (int u = 0; u < n; u++)
    z += exp ((x[u] > 0 ? x[u] : -INFINITY) - c);
  return z;
}

int
main (void)
{
  int T = 5, hs = 3;
  float *q = tg_alloc_f (T * hs), *k = tg_alloc_f (T * hs);
  float *v = tg_alloc_f (T * hs), *att = tg_alloc_f (T * T);
  float *o = tg_alloc_f (T * hs);
  tg_fill_f (q, T * hs, 1, -1, 1);
  tg_fill_f (k, T * hs, 2, -1, 1);
  tg_fill_f (v, T * hs, 3, -1, 1);
  TG_GRADCHECK_NULL (attn_mf, "att", &T, &hs, q, k, v, att, o);

  int n = 6;
  double c = 0.5, x[6] = { 0.3, -0.7, 1.1, -0.2, 0.6, -1.3 };
  TG_GRADCHECK (f, &n, x, &c);
  return tg_exit ();
}
