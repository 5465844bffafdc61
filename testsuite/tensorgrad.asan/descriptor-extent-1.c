/* { dg-do run } */
/* The descriptor's number of elements of arrays read only behind
   conditions (roles.c, path_extent), under AddressSanitizer
   (asan.exp): tg_gradcheck copies that many elements of each of the
   caller's arrays, which are allocated here exactly as large as the
   kernel reads them, so an extent counted one too many is a
   heap-buffer-overflow.  A neighbour behind i + 1 < n (x has n
   elements, not n + 1); a padded 1-D convolution whose input is read
   only behind 0 <= l + k - P < L; causal scores whose keys are read
   only behind u <= t (T rows, not more); a 2-D convolution whose taps
   skip the padding with continue at two loop levels (x read behind
   0 <= ih < H and 0 <= iw < W: C H W elements, peel_cap); each checked
   against central differences as in descriptor-paths-1.c.  A stencil
   whose ends are held by equality tests (i == 0 || i == n - 1 ? 0 :
   x[i + 1] ...; i != 0 && i != n - 1 likewise): the counter differs
   from its first and last values there, so x[i + 1] reads n elements,
   not n + 1 (the extent was n + 1).  Valid (unpadded) convolutions, 1-D
   and 2-D: the output's rows are L - K + 1 and (H - 2) * (W - 2) long,
   coefficients that are the loops' extents (te_index_range reads them
   as such: at least 1 where the loop runs); they had no descriptor.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
shift_add (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] + (i + 1 < n ? x[i + 1] : 0);
}

__attribute__ ((differentiable))
void
conv_pad (int L, int K, int P, const double *x, const double *w, double *y)
{
  for (int l = 0; l < L; l++)
    {
      double s = 0;
      for (int k = 0; k < K; k++)
        {
          int pos = l + k - P;
          if (pos < 0 || pos >= L)
            continue;
          s += w[k] * x[pos];
        }
      y[l] = tanh (s);
    }
}

__attribute__ ((differentiable))
void
causal (int T, int d, const double *q, const double *k, double *s)
{
  for (int t = 0; t < T; t++)
    for (int u = 0; u < T; u++)
      {
        double a = 0;
        for (int i = 0; i < d; i++)
          a += q[t * d + i] * k[u * d + i];
        s[t * T + u] = u <= t ? a : -1e9;
      }
}

__attribute__ ((differentiable))
void
conv2d_continue (int C, int H, int W, int K, int P, const double *x,
                 const double *w, double *y)
{
  for (int oh = 0; oh < H; oh++)
    for (int ow = 0; ow < W; ow++)
      {
        double s = 0;
        for (int c = 0; c < C; c++)
          for (int kh = 0; kh < K; kh++)
            {
              int ih = oh + kh - P;
              if (ih < 0 || ih >= H)
                continue;
              for (int kw = 0; kw < K; kw++)
                {
                  int iw = ow + kw - P;
                  if (iw < 0 || iw >= W)
                    continue;
                  s += w[(c * K + kh) * K + kw] * x[(c * H + ih) * W + iw];
                }
            }
        y[oh * W + ow] = s;
      }
}

__attribute__ ((differentiable))
void
ends_held (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i == 0 || i == n - 1 ? 0 : x[i + 1] - 2 * x[i] + x[i - 1] * x[i];
}

__attribute__ ((differentiable))
void
ends_held_f (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    if (i != 0 && n - 1 != i)
      y[i] = x[i + 1] * x[i - 1];
    else
      y[i] = x[i];
}

__attribute__ ((differentiable))
void
conv1d_valid (int B, int C, int L, int K, const double *x, const double *w,
              double *y)
{
  int Lo = L - K + 1;
  for (int b = 0; b < B; b++)
    for (int c = 0; c < C; c++)
      for (int l = 0; l < Lo; l++)
        {
          double s = 0;
          for (int q = 0; q < K; q++)
            s += w[c * K + q] * x[b * L + l + q];
          y[(b * C + c) * Lo + l] = s;
        }
}

__attribute__ ((differentiable))
void
conv2d_valid (int N, int C, int O, int H, int W, const float *x,
              const float *w, float *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      for (int oh = 0; oh < H - 2; oh++)
        for (int ow = 0; ow < W - 2; ow++)
          {
            float s = 0;
            for (int c = 0; c < C; c++)
              for (int kh = 0; kh < 3; kh++)
                for (int kw = 0; kw < 3; kw++)
                  s += w[((o * C + c) * 3 + kh) * 3 + kw]
                       * x[((n * C + c) * H + oh + kh) * W + ow + kw];
            y[((n * O + o) * (H - 2) + oh) * (W - 2) + ow] = s;
          }
}

int
main (void)
{
  int n = 5, L = 6, K = 3, P = 1, T = 4, d = 2;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  TG_GRADCHECK (shift_add, &n, x, y);
  double *xc = tg_alloc (L), *w = tg_alloc (K), *yc = tg_alloc (L);
  tg_fill (xc, L, 2, -1, 1);
  tg_fill (w, K, 3, -1, 1);
  TG_GRADCHECK (conv_pad, &L, &K, &P, xc, w, yc);
  double *q = tg_alloc (T * d), *k = tg_alloc (T * d), *s = tg_alloc (T * T);
  tg_fill (q, T * d, 4, -1, 1);
  tg_fill (k, T * d, 5, -1, 1);
  TG_GRADCHECK (causal, &T, &d, q, k, s);
  int C = 2, H = 4, W = 3;
  double *x2 = tg_alloc (C * H * W), *w2 = tg_alloc (C * K * K),
         *y2 = tg_alloc (H * W);
  tg_fill (x2, C * H * W, 6, -1, 1);
  tg_fill (w2, C * K * K, 7, -1, 1);
  TG_GRADCHECK (conv2d_continue, &C, &H, &W, &K, &P, x2, w2, y2);
  free (x2), free (w2), free (y2);
  for (int m = 1; m <= 4; m += 3)
    {
      double *xe = tg_alloc (m), *ye = tg_alloc (m);
      float *xf = tg_alloc_f (m), *yf = tg_alloc_f (m);
      tg_fill (xe, m, 8, -1, 1);
      tg_fill_f (xf, m, 9, -1, 1);
      TG_GRADCHECK (ends_held, &m, xe, ye);
      TG_GRADCHECK (ends_held_f, &m, xf, yf);
      free (xe), free (ye), free (xf), free (yf);
    }
  free (x), free (y), free (xc), free (w), free (yc);
  free (q), free (k), free (s);
  int B = 2, Cv = 3, Lv = 9, Kv = 4;
  double *xv = tg_alloc (B * Lv), *wv = tg_alloc (Cv * Kv);
  double *yv = tg_alloc (B * Cv * (Lv - Kv + 1));
  tg_fill (xv, B * Lv, 10, -1, 1);
  tg_fill (wv, Cv * Kv, 11, -1, 1);
  TG_GRADCHECK (conv1d_valid, &B, &Cv, &Lv, &Kv, xv, wv, yv);
  int Nn = 2, Cc = 2, O = 3, Hh = 6, Ww = 5;
  float *xf = tg_alloc_f (Nn * Cc * Hh * Ww), *wf = tg_alloc_f (O * Cc * 9);
  float *yf = tg_alloc_f (Nn * O * (Hh - 2) * (Ww - 2));
  tg_fill_f (xf, Nn * Cc * Hh * Ww, 12, -1, 1);
  tg_fill_f (wf, O * Cc * 9, 13, -1, 1);
  TG_GRADCHECK (conv2d_valid, &Nn, &Cc, &O, &Hh, &Ww, xf, wf, yf);
  free (xv), free (wv), free (yv), free (xf), free (wf), free (yf);
  return tg_exit ();
}
