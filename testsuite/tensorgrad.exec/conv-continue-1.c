/* { dg-do run } */
/* Zero padding written as C programmers write it: the taps outside the
   image skipped with continue, at the row loop and at the column loop.
   The lifter makes one reduction over the channels and both tap loops,
   the row test guarding the column loop's terms (flatten_inner), and the
   descriptor bounds the input by both tests (peel_cap).
     conv2d:   F filters with a bias, float, stride 1, padding P.
     strided:  stride 2, double, the output size given.
     box:      a 3x3 box sum, the taps outside skipped, squared.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv2d (int C, int H, int W, int K, int F, int P, const float *x,
        const float *w, const float *b, float *y)
{
  for (int f = 0; f < F; f++)
    for (int oh = 0; oh < H; oh++)
      for (int ow = 0; ow < W; ow++)
        {
          float s = b[f];
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
                    s += w[((f * C + c) * K + kh) * K + kw]
                         * x[(c * H + ih) * W + iw];
                  }
              }
          y[(f * H + oh) * W + ow] = s;
        }
}

__attribute__ ((differentiable))
void
strided (int H, int W, int OH, int OW, int K, int P, const double *x,
         const double *w, double *y)
{
  for (int oh = 0; oh < OH; oh++)
    for (int ow = 0; ow < OW; ow++)
      {
        double s = 0.0;
        for (int kh = 0; kh < K; kh++)
          {
            int ih = 2 * oh + kh - P;
            if (ih < 0 || ih >= H)
              continue;
            for (int kw = 0; kw < K; kw++)
              {
                int iw = 2 * ow + kw - P;
                if (iw < 0 || iw >= W)
                  continue;
                s += w[kh * K + kw] * x[ih * W + iw];
              }
          }
        y[oh * OW + ow] = tanh (s);
      }
}

__attribute__ ((differentiable))
void
box (int H, int W, const double *x, double *y)
{
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      {
        double s = 0.0;
        for (int di = -1; di <= 1; di++)
          {
            if (i + di < 0 || i + di >= H)
              continue;
            for (int dj = -1; dj <= 1; dj++)
              {
                if (j + dj < 0 || j + dj >= W)
                  continue;
                s += x[(i + di) * W + j + dj];
              }
          }
        y[i * W + j] = s * s;
      }
}

int
main (void)
{
  int C = 2, H = 5, W = 4, K = 3, F = 2, P = 1;
  float x[40], w[36], b[2], y[40];
  tg_fill_f (x, 40, 1, -1, 1);
  tg_fill_f (w, 36, 2, -1, 1);
  tg_fill_f (b, 2, 3, -1, 1);
  TG_GRADCHECK (conv2d, &C, &H, &W, &K, &F, &P, x, w, b, y);
  TG_GRADCHECK_NULL (conv2d, "x b", &C, &H, &W, &K, &F, &P, x, w, b, y);

  int Hs = 7, Ws = 6, OH = 4, OW = 3;
  double xs[42], ws[9], ys[12];
  tg_fill (xs, 42, 4, -1, 1);
  tg_fill (ws, 9, 5, -0.5, 0.5);
  TG_GRADCHECK (strided, &Hs, &Ws, &OH, &OW, &K, &P, xs, ws, ys);

  int Hb = 4, Wb = 5;
  double xb[20], yb[20];
  tg_fill (xb, 20, 6, -1, 1);
  TG_GRADCHECK (box, &Hb, &Wb, xb, yb);
  return tg_exit ();
}
