/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A causal row whose tail is zeroed BETWEEN the exponentials and the
   normalization: p[u] = exp (s[u] - mx) and z += p[u] over u <= t, then
   p[u] = 0 for u > t, then p[u] /= z over u <= t.  The tail loop writes
   elements apart from the row's u <= t, so it is a piece of the row of
   its own; the normalization rewrites only what the exponentials wrote
   (a version of those), and the sum reads that version.  With y =
   softmax over u <= t of each row: d_s[u] += y[u] (d_p[u] - sum_k d_p[k]
   y[k]) for u <= t and nothing for the tail.  Double with the row at
   row + u and a separate loop for the maximum; float over the rows of
   several heads through row pointers with the tail cleared by memset;
   double with the tail zeroed by a loop counting from 0 on a pointer to
   t + 1 and 1/z taken once; and attention's probabilities so, kept as
   outputs with the scores (also with their shadows NULL).  Rows of a
   constant length too, the tail cleared by memset after the
   normalization or by a loop before it: the tail's counter steps the
   row index by 6 in rows of 5, one row and one element.  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
causal_mid (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      int row = t * T;
      double mx = -1e300;
      for (int u = 0; u <= t; u++)
        mx = fmax (mx, s[row + u]);
      double z = 0;
      for (int u = 0; u <= t; u++)
        {
          p[row + u] = exp (s[row + u] - mx);
          z += p[row + u];
        }
      for (int u = t + 1; u < T; u++)
        p[row + u] = 0;
      for (int u = 0; u <= t; u++)
        p[row + u] /= z;
    }
}

__attribute__ ((differentiable))
void
heads_memset (int B, int NH, int T, const float *s, float *p)
{
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++)
      for (int t = 0; t < T; t++)
        {
          const float *sr = s + ((b * NH + h) * T + t) * T;
          float *pr = p + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            if (sr[u] > mx)
              mx = sr[u];
          float z = 0;
          for (int u = 0; u <= t; u++)
            {
              pr[u] = expf (sr[u] - mx);
              z += pr[u];
            }
          memset (pr + t + 1, 0, (T - t - 1) * sizeof *pr);
          for (int u = 0; u <= t; u++)
            pr[u] /= z;
        }
}

__attribute__ ((differentiable))
void
causal_inv (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double z = 0;
      for (int u = 0; u < t + 1; u++)
        {
          p[t * T + u] = exp (s[t * T + u]);
          z += p[t * T + u];
        }
      double *tail = p + t * T + t + 1;
      for (int u = 0; u < T - t - 1; u++)
        tail[u] = 0;
      double iz = 1 / z;
      for (int u = 0; u < t + 1; u++)
        p[t * T + u] = p[t * T + u] * iz;
    }
}

__attribute__ ((differentiable))
void
attention_mid (int B, int T, int C, int NH, const float *qkv, float *sc,
               float *p, float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *q = qkv + (b * T + t) * 3 * C + h * hs;
          float *srow = sc + ((b * NH + h) * T + t) * T;
          float *prow = p + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            {
              const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
              float s = 0;
              for (int i = 0; i < hs; i++)
                s += q[i] * k[i];
              s *= scale;
              srow[u] = s;
              mx = fmaxf (mx, s);
            }
          float z = 0;
          for (int u = 0; u <= t; u++)
            {
              prow[u] = expf (srow[u] - mx);
              z += prow[u];
            }
          for (int u = t + 1; u < T; u++)
            {
              prow[u] = 0.0f;
              srow[u] = 0.0f;
            }
          for (int u = 0; u <= t; u++)
            prow[u] /= z;
          float *o = out + (b * T + t) * C + h * hs;
          for (int i = 0; i < hs; i++)
            o[i] = 0;
          for (int u = 0; u <= t; u++)
            for (int i = 0; i < hs; i++)
              o[i] += prow[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
        }
}

#define TC 5

__attribute__ ((differentiable))
void
causal_const (const double *s, double *p, double *q)
{
  for (int t = 0; t < TC; t++)
    {
      double z = 0;
      for (int u = 0; u <= t; u++)
        {
          p[t * TC + u] = exp (s[t * TC + u]);
          z += p[t * TC + u];
        }
      for (int u = 0; u <= t; u++)
        p[t * TC + u] /= z;
      memset (&p[t * TC + t + 1], 0, (TC - t - 1) * sizeof (double));
    }
  for (int t = 0; t < TC; t++)
    {
      double z = 0;
      for (int u = 0; u <= t; u++)
        {
          q[t * TC + u] = exp (s[t * TC + u]);
          z += q[t * TC + u];
        }
      for (int u = t + 1; u < TC; u++)
        q[t * TC + u] = 0;
      for (int u = 0; u <= t; u++)
        q[t * TC + u] /= z;
    }
}

/* The softmax of row T of S (length T, entries u <= t) against P.  */
static void
check_rows (int rows, int T, const double *s, const double *p)
{
  for (int r = 0; r < rows; r++)
    {
      int t = r % T;
      double z = 0;
      for (int u = 0; u <= t; u++)
        z += exp (s[r * T + u]);
      for (int u = 0; u < T; u++)
        CHECK_NEAR (p[r * T + u], u <= t ? exp (s[r * T + u]) / z : 0.0,
                    1e-12, 1e-15);
    }
}

int
main (void)
{
  int T = 6;
  double *s = tg_alloc (T * T), *p = tg_alloc (T * T);
  tg_fill (s, T * T, 1, -2, 2);
  causal_mid (T, s, p);
  check_rows (T, T, s, p);
  TG_GRADCHECK (causal_mid, &T, s, p);
  TG_GRADCHECK_NULL (causal_mid, "s", &T, s, p);
  causal_inv (T, s, p);
  check_rows (T, T, s, p);
  TG_GRADCHECK (causal_inv, &T, s, p);
  double *sc5 = tg_alloc (TC * TC), *p5 = tg_alloc (TC * TC);
  double *q5 = tg_alloc (TC * TC);
  tg_fill (sc5, TC * TC, 4, -2, 2);
  causal_const (sc5, p5, q5);
  check_rows (TC, TC, sc5, p5);
  check_rows (TC, TC, sc5, q5);
  TG_GRADCHECK (causal_const, sc5, p5, q5);
  TG_GRADCHECK_NULL (causal_const, "p", sc5, p5, q5);

  int B = 2, NH = 3, T2 = 5;
  int n = B * NH * T2 * T2;
  float *sf = tg_alloc_f (n), *pf = tg_alloc_f (n);
  tg_fill_f (sf, n, 2, -2, 2);
  TG_GRADCHECK (heads_memset, &B, &NH, &T2, sf, pf);
  for (int i = 0; i < n; i++)
    if ((i % T2) > (i / T2) % T2)
      CHECK (pf[i] == 0.0f);

  int C = 6, NH2 = 2, T3 = 4;
  float *qkv = tg_alloc_f (B * T3 * 3 * C);
  float *sc = tg_alloc_f (B * NH2 * T3 * T3), *pa = tg_alloc_f (B * NH2 * T3 * T3);
  float *out = tg_alloc_f (B * T3 * C);
  tg_fill_f (qkv, B * T3 * 3 * C, 3, -1, 1);
  TG_GRADCHECK (attention_mid, &B, &T3, &C, &NH2, qkv, sc, pa, out);
  TG_GRADCHECK_NULL (attention_mid, "sc p", &B, &T3, &C, &NH2, qkv, sc, pa,
                     out);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "version: p, written again by a later loop nest, keeps the values of the earlier one in p.v1" } } */
