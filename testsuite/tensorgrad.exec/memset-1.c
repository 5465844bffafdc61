/* { dg-do run } */
/* memset and memcpy of floating elements, as kernels clear and copy
   with them: an output cleared before a matrix product accumulates into
   it; a per-sample hidden layer in a variable-length array cleared with
   sizeof; a residual that copies each row of the input, then adds to
   it; attention clearing its output row and its causal tail with memset
   (float, rows of several heads, scores and probabilities outputs, also
   with their shadows NULL); a window of the input copied into a local
   buffer through pointer offsets, then read; pairs of floats and single
   doubles copied (GCC folds those copies into integer loads and stores).
   Each call is a loop of its own over the elements, inside the loops
   around the call.  A memset in one
   arm of an if/else is in arms-1.c; the refusals are in
   err/err-memset-1.c.  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_memset (int n, int k, int m, const double *x, const double *w, double *y)
{
  memset (y, 0, (size_t) n * m * sizeof (double));
  for (int i = 0; i < n; i++)
    for (int p = 0; p < k; p++)
      for (int j = 0; j < m; j++)
        y[i * m + j] += x[i * k + p] * w[p * m + j];
}

__attribute__ ((differentiable))
void
mlp_vla (int B, int I, int H, const float *x, const float *w1, const float *w2,
         float *out)
{
  float h[H];
  for (int b = 0; b < B; b++)
    {
      memset (h, 0, sizeof h);
      for (int j = 0; j < H; j++)
        for (int i = 0; i < I; i++)
          h[j] += w1[j * I + i] * x[b * I + i];
      float s = 0;
      for (int j = 0; j < H; j++)
        s += w2[j] * tanhf (h[j]);
      out[b] = s;
    }
}

__attribute__ ((differentiable))
void
residual (int N, int C, const double *x, const double *g, double *y)
{
  for (int n = 0; n < N; n++)
    {
      memcpy (y + n * C, x + n * C, C * sizeof *y);
      for (int c = 0; c < C; c++)
        y[n * C + c] += g[c] * tanh (x[n * C + c]);
    }
}

__attribute__ ((differentiable))
void
attention_memset (int B, int T, int C, int NH, const float *qkv, float *sc,
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
          for (int u = 0; u <= t; u++)
            prow[u] /= z;
          memset (prow + t + 1, 0, (T - t - 1) * sizeof (float));
          memset (srow + t + 1, 0, (T - t - 1) * sizeof (float));
          float *o = out + (b * T + t) * C + h * hs;
          memset (o, 0, hs * sizeof (float));
          for (int u = 0; u <= t; u++)
            for (int i = 0; i < hs; i++)
              o[i] += prow[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
        }
}

/* A 1-D convolution over a window copied into a local buffer.  */
__attribute__ ((differentiable))
void
window_copy (int n, const double *x, const double *w, double *y)
{
  double buf[5];
  for (int i = 0; i < n; i++)
    {
      memcpy (buf, x + i, sizeof buf);
      double s = 0;
      for (int k = 0; k < 5; k++)
        s += w[k] * buf[k] * buf[k];
      y[i] = s;
    }
}

/* Complex numbers copied a pair at a time into a local, then rotated;
   one double copied at a time, then squared.  GCC folds a copy of 8 or
   16 bytes into an integer load and store, which copy the elements as
   memcpy does.  */
__attribute__ ((differentiable))
void
rotate_pairs (int n, const float *x, const float *c, float *y)
{
  for (int r = 0; r < n; r++)
    {
      float v[2];
      memcpy (v, x + 2 * r, sizeof v);
      y[2 * r] = v[0] * c[r] - v[1];
      y[2 * r + 1] = v[1] * c[r] + v[0];
    }
}

__attribute__ ((differentiable))
void
copy_one (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      memcpy (&y[i], &x[i], sizeof *y);
      y[i] = y[i] * x[i];
    }
}

int
main (void)
{
  int n = 3, k = 4, m = 5;
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  TG_GRADCHECK (dense_memset, &n, &k, &m, x, w, y);

  int B = 3, I = 4, H = 5;
  float *xf = tg_alloc_f (B * I), *w1 = tg_alloc_f (H * I);
  float *w2 = tg_alloc_f (H), *o = tg_alloc_f (B);
  tg_fill_f (xf, B * I, 3, -1, 1);
  tg_fill_f (w1, H * I, 4, -1, 1);
  tg_fill_f (w2, H, 5, -1, 1);
  TG_GRADCHECK (mlp_vla, &B, &I, &H, xf, w1, w2, o);

  int N = 3, C = 7;
  double *xr = tg_alloc (N * C), *g = tg_alloc (C), *yr = tg_alloc (N * C);
  tg_fill (xr, N * C, 6, -1, 1);
  tg_fill (g, C, 7, -1, 1);
  TG_GRADCHECK (residual, &N, &C, xr, g, yr);

  int B2 = 2, T = 5, C2 = 6, NH = 2;
  float *qkv = tg_alloc_f (B2 * T * 3 * C2);
  float *sc = tg_alloc_f (B2 * NH * T * T), *pa = tg_alloc_f (B2 * NH * T * T);
  float *out = tg_alloc_f (B2 * T * C2);
  tg_fill_f (qkv, B2 * T * 3 * C2, 8, -1, 1);
  TG_GRADCHECK (attention_memset, &B2, &T, &C2, &NH, qkv, sc, pa, out);
  TG_GRADCHECK_NULL (attention_memset, "sc p", &B2, &T, &C2, &NH, qkv, sc, pa,
                     out);

  int nw = 6;
  double *xw = tg_alloc (nw + 4), *ww = tg_alloc (5), *yw = tg_alloc (nw);
  tg_fill (xw, nw + 4, 9, -1, 1);
  tg_fill (ww, 5, 10, -1, 1);
  TG_GRADCHECK (window_copy, &nw, xw, ww, yw);

  float *xc = tg_alloc_f (2 * nw), *cc = tg_alloc_f (nw), *yc = tg_alloc_f (2 * nw);
  tg_fill_f (xc, 2 * nw, 11, -1, 1);
  tg_fill_f (cc, nw, 12, -1, 1);
  TG_GRADCHECK (rotate_pairs, &nw, xc, cc, yc);
  TG_GRADCHECK (copy_one, &nw, xw, yw);
  return tg_exit ();
}
