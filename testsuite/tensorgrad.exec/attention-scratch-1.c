/* { dg-do run } */
/* Causal attention whose scores live in a local row, as code that keeps
   no cache writes it: for each position t (and head h) a scratch w[]
   receives the scores of t against u <= t, then the same row is
   rewritten in place with exp (w[u] - max), and the output reads it
   divided by the sum.  Only the first t + 1 elements of the row are
   written in iteration t, so the row is as long as the declared array.
   With y the softmax of the row's scores s,
     d_s[u] = y[u] (g[u] - sum_{u' <= t} y[u'] g[u']),
       g[u] = sum_i d_out[t][i] v[u][i],
     d_q[t][i] += scale sum_u d_s[u] k[u][i],
     d_k[u][i] += scale d_s[u] q[t][i],  d_v[u][i] += y[u] d_out[t][i].
   Variants: float, one head, a VLA w[T] and compare-and-assign for the
   maximum; double, heads packed in the rows (h * hs offsets), a scratch
   of constant size 16 for e = exp (s - max) beside the scores, fmax and
   1 / z computed once.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
att_local (int T, int hs, const float *q, const float *k, const float *v,
           float *out)
{
  float scale = 1.0f / sqrtf ((float) hs);
  for (int t = 0; t < T; t++)
    {
      float w[T];
      float mx = -1e30f;
      for (int u = 0; u <= t; u++)
        {
          float s = 0;
          for (int i = 0; i < hs; i++)
            s += q[t * hs + i] * k[u * hs + i];
          s *= scale;
          w[u] = s;
          if (s > mx)
            mx = s;
        }
      float z = 0;
      for (int u = 0; u <= t; u++)
        {
          w[u] = expf (w[u] - mx);
          z += w[u];
        }
      for (int i = 0; i < hs; i++)
        {
          float o = 0;
          for (int u = 0; u <= t; u++)
            o += w[u] / z * v[u * hs + i];
          out[t * hs + i] = o;
        }
    }
}

__attribute__ ((differentiable))
void
att_heads (int T, int NH, int hs, const double *q, const double *k,
           const double *v, double *out)
{
  int C = NH * hs;
  double scale = 1 / sqrt (hs);
  for (int t = 0; t < T; t++)
    for (int h = 0; h < NH; h++)
      {
        const double *qt = q + t * C + h * hs;
        double s[16], e[16];
        double mx = -INFINITY;
        for (int u = 0; u <= t; u++)
          {
            const double *ku = k + u * C + h * hs;
            double a = 0;
            for (int i = 0; i < hs; i++)
              a += qt[i] * ku[i];
            s[u] = a * scale;
            mx = fmax (mx, s[u]);
          }
        double z = 0;
        for (int u = 0; u <= t; u++)
          {
            e[u] = exp (s[u] - mx);
            z += e[u];
          }
        double rz = 1 / z;
        double *o = out + t * C + h * hs;
        for (int i = 0; i < hs; i++)
          o[i] = 0;
        for (int u = 0; u <= t; u++)
          for (int i = 0; i < hs; i++)
            o[i] += e[u] * rz * v[u * C + h * hs + i];
      }
}

int
main (void)
{
  int T = 5, hs = 3;
  float *q = tg_alloc_f (T * hs), *k = tg_alloc_f (T * hs);
  float *v = tg_alloc_f (T * hs), *out = tg_alloc_f (T * hs);
  tg_fill_f (q, T * hs, 1, -1, 1);
  tg_fill_f (k, T * hs, 2, -1, 1);
  tg_fill_f (v, T * hs, 3, -1, 1);
  TG_GRADCHECK (att_local, &T, &hs, q, k, v, out);
  TG_GRADCHECK_NULL (att_local, "k", &T, &hs, q, k, v, out);

  int Td = 6, NH = 2, hd = 3;
  double *qd = tg_alloc (Td * NH * hd), *kd = tg_alloc (Td * NH * hd);
  double *vd = tg_alloc (Td * NH * hd), *od = tg_alloc (Td * NH * hd);
  tg_fill (qd, Td * NH * hd, 4, -1, 1);
  tg_fill (kd, Td * NH * hd, 5, -1, 1);
  tg_fill (vd, Td * NH * hd, 6, -1, 1);
  TG_GRADCHECK (att_heads, &Td, &NH, &hd, qd, kd, vd, od);
  TG_GRADCHECK_NULL (att_heads, "q v", &Td, &NH, &hd, qd, kd, vd, od);
  return tg_exit ();
}
