/* { dg-do run } */
/* Kernels whose arrays are read only behind conditions still get a
   descriptor: the extent of each array is that of its accesses, each
   bounded by the conditions on its path.  A condition on data (a mask)
   bounds nothing; one on the counters bounds them (u <= t); a bounds
   test on the index itself (0 <= l + k - P < L) bounds the index; one
   on a counter the index does not use (the weight w[k] under that test)
   leaves the index its full range.
     masked:  s = sum_{mask[i]} a[i]^2,        d_a[i] += 2 a[i] [mask[i]];
     pairs:   s = sum_{i < j} (x[i] - x[j])^2, d_x[i] += 2 sum_{j != i} (x[i] - x[j]);
     conv:    y[co][l] = b[co] + sum_{ci,k: 0 <= l+k-P < L} w[co][ci][k] x[ci][l+k-P];
     blur:    out[y][x] = mean of img at the 3 x 3 neighbours clamped
              into the image (float).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
masked (int n, const int *mask, const double *a)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      s += a[i] * a[i];
  return s;
}

__attribute__ ((differentiable))
double
pairs (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i < j)
        s += (x[i] - x[j]) * (x[i] - x[j]);
  return s;
}

__attribute__ ((differentiable))
void
conv (int Cin, int Cout, int L, int K, int P, const double *x,
      const double *w, const double *b, double *y)
{
  for (int co = 0; co < Cout; co++)
    for (int l = 0; l < L; l++)
      {
        double acc = b[co];
        for (int ci = 0; ci < Cin; ci++)
          for (int k = 0; k < K; k++)
            {
              int pos = l + k - P;
              if (pos < 0 || pos >= L)
                continue;
              acc += w[(co * Cin + ci) * K + k] * x[ci * L + pos];
            }
        y[co * L + l] = acc;
      }
}

__attribute__ ((differentiable))
void
blur (int H, int W, const float *img, float *out)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float s = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            {
              int yy = y + dy, xx = x + dx;
              yy = yy < 0 ? 0 : (yy >= H ? H - 1 : yy);
              xx = xx < 0 ? 0 : (xx >= W ? W - 1 : xx);
              s += img[yy * W + xx];
            }
        out[y * W + x] = s / 9.0f;
      }
}

int
main (void)
{
  int n = 7;
  int mask[7] = { 1, 0, 1, 1, 0, 0, 1 };
  double *a = tg_alloc (n), *x = tg_alloc (n);
  tg_fill (a, n, 1, -1, 1);
  tg_fill (x, n, 2, -1, 1);
  TG_GRADCHECK (masked, &n, mask, a);
  TG_GRADCHECK (pairs, &n, x);

  int Cin = 2, Cout = 3, L = 5, K = 3, P = 1;
  double *xc = tg_alloc (Cin * L), *w = tg_alloc (Cout * Cin * K);
  double *b = tg_alloc (Cout), *y = tg_alloc (Cout * L);
  tg_fill (xc, Cin * L, 3, -1, 1);
  tg_fill (w, Cout * Cin * K, 4, -1, 1);
  tg_fill (b, Cout, 5, -1, 1);
  TG_GRADCHECK (conv, &Cin, &Cout, &L, &K, &P, xc, w, b, y);

  int H = 4, Wd = 5;
  float *img = tg_alloc_f (H * Wd), *out = tg_alloc_f (H * Wd);
  tg_fill_f (img, H * Wd, 6, -1, 1);
  TG_GRADCHECK (blur, &H, &Wd, img, out);
  return tg_exit ();
}
