/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-parallel -fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */
/* no-tiled: the products stay loops, the partials of whose sums this
   tests (without it they are tiled products on the threads,
   parallel-tiled-1.c).  */
/* The option parallel: kernels without directives get gradients whose
   loop nests run on OpenMP threads where they can (lib/passes/
   parallel.c).  A softmax over rows (each row's adjoint apart: no
   partial), a layer norm whose gain and bias adjoints every row adds to
   (summed per thread, then in thread order), and a padded convolution
   whose weight and input adjoints every sample adds to (the input's
   partial per thread only the rows its samples reach; it read d_y
   through a per-thread row of scratch until fold.c dropped that copy);
   and a maximum kept in a one-element local array
   for a later nest.  Every gradient component against central
   differences, at 1, 2 and 4 threads (omp.exp), and the dump's
   decisions.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *xr = x + i * m;
      double *yr = y + i * m;
      double mx = xr[0];
      for (int j = 1; j < m; j++)
        mx = fmax (mx, xr[j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        {
          yr[j] = exp (xr[j] - mx);
          s += yr[j];
        }
      for (int j = 0; j < m; j++)
        yr[j] /= s;
    }
}
__attribute__ ((differentiable))
void
layernorm (int n, int c, const float *x, const float *g, const float *b,
                float *mean, float *rstd, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xi = x + i * c;
      float m = 0;
      for (int k = 0; k < c; k++)
        m += xi[k];
      m /= c;
      float v = 0;
      for (int k = 0; k < c; k++)
        v += (xi[k] - m) * (xi[k] - m);
      v /= c;
      float r = 1.0f / sqrtf (v + 1e-5f);
      for (int k = 0; k < c; k++)
        y[i * c + k] = (xi[k] - m) * r * g[k] + b[k];
      mean[i] = m;
      rstd[i] = r;
    }
}
__attribute__ ((differentiable))
void
conv2d (int N, int C, int O, int H, int W, const double *x,
             const double *w, double *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      for (int oh = 0; oh < H; oh++)
        for (int ow = 0; ow < W; ow++)
          {
            double s = 0;
            for (int c = 0; c < C; c++)
              for (int kh = 0; kh < 3; kh++)
                {
                  int ih = oh + kh - 1;
                  if (ih < 0 || ih >= H)
                    continue;
                  for (int kw = 0; kw < 3; kw++)
                    {
                      int iw = ow + kw - 1;
                      if (iw < 0 || iw >= W)
                        continue;
                      s += w[((o * C + c) * 3 + kh) * 3 + kw]
                           * x[((n * C + c) * H + ih) * W + iw];
                    }
                }
            y[((n * O + o) * H + oh) * W + ow] = s;
          }
}
/* Values one iteration of a parallel nest writes to one-element local
   arrays (on the stack) and a later nest reads: shared by the threads
   (each thread had its own copy, and the later nest read zeros; found by
   the fuzzer's O2-parallel configuration).  */
__attribute__ ((differentiable))
float
colmax (const float x[4][1], int n)
{
  float t[1];
  for (int j = 0; j < 1; j++)
    {
      float m = -1e30f;
      for (int i = 0; i < 4; i++)
        m = fmaxf (m, x[i][j]);
      t[j] = m;
    }
  float s = 0;
  for (int i = 0; i < n; i++)
    s += t[0] * 0.5f;
  return s;
}

int
main (void)
{
  int n = 7, m = 9;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  TG_GRADCHECK (softmax, &n, &m, x, y);
  int c = 6;
  float *xf = tg_alloc_f (n * c), *g = tg_alloc_f (c), *b = tg_alloc_f (c);
  float *mean = tg_alloc_f (n), *rstd = tg_alloc_f (n);
  float *yf = tg_alloc_f (n * c);
  tg_fill_f (xf, n * c, 2, -2, 2);
  tg_fill_f (g, c, 3, 0.5, 1.5);
  tg_fill_f (b, c, 4, -1, 1);
  TG_GRADCHECK (layernorm, &n, &c, xf, g, b, mean, rstd, yf);
  TG_GRADCHECK_NULL (layernorm, "g", &n, &c, xf, g, b, mean, rstd, yf);
  int N = 2, C = 2, O = 3, H = 6, W = 5;
  double *xc = tg_alloc (N * C * H * W), *wc = tg_alloc (O * C * 9);
  double *yc = tg_alloc (N * O * H * W);
  tg_fill (xc, N * C * H * W, 5, -1, 1);
  tg_fill (wc, O * C * 9, 6, -1, 1);
  TG_GRADCHECK (conv2d, &N, &C, &O, &H, &W, xc, wc, yc);
  TG_GRADCHECK_NULL (conv2d, "x", &N, &C, &O, &H, &W, xc, wc, yc);
  float xm[4] = { 0.25f, -1.5f, 0.75f, 0.5f };
  int reps = 3;
  TG_GRADCHECK (colmax, xm, &reps);
  free (x), free (y), free (xf), free (g), free (b), free (mean);
  free (rstd), free (yf), free (xc), free (wc), free (yc);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over i of the nest writing d_s, d1, d_x runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread keeps its d_s there" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_g is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_b is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over n of the nest writing d_w, d_x runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_x is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread's partial of d_x holds the elements its iterations reach" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over j of the nest writing t, v2, f4, d3 runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-not "stays serial: its iterations share" } } */
