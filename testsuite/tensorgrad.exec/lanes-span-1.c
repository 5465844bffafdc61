/* { dg-do run } */
/* Sums in lanes across a plane (lanes.c step 5, schedule.c step 2b).
   conv_f and conv_d, a 3 x 3 convolution with zero padding by a bounds
   test, float and double: y[n][o][oh][ow] = b[o] + sum_{ci,kh,kw}
   x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw] (inside the image), so
   d_x[n][ci][ih][iw] += wt[o][ci][kh][kw] d_y[n][o][oh][ow], d_wt[o][ci]
   [kh][kw] += x[..] d_y[..] and d_b[o] += d_y[..] over the plane; the
   gradient runs each tap over its plane of output rows and columns, and
   d_wt's and d_b's partial sums span the rows.  scale: y[i][j] = a x[i]
   [j] + c, a 2-D stage without loops of its own, d_a += x d_y and d_c
   += d_y across i as well as j.  Images of 7 x 7 (rows of lanes with a
   rest only) and 33 x 33 (blocks and a rest, per tap); batches of 1 and
   3; scale over 5 x 21 and 1 x 8.  sum0: y[j][k] = sum_i v[i][j][k]
   in double, whose adjoint d_v[i][j][k] += d_y[j][k] walks the plane
   (j, k) but sums across nothing: it keeps the loop order j, i, k
   (schedule.c step 2b), and rows.c the copy of d_y a row.  Checked
   against central differences, also with NULL shadows.  With no-tiled:
   the convolutions' gradients would otherwise be products over their
   patches (patches.c, patches-conv2d-1.c).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */

#include "tg-test.h"

#define CONV(NAME, T)                                                         \
  __attribute__ ((differentiable)) void                                       \
  NAME (int nb, int c, int h, int w, int f, const T *x, const T *wt,          \
        const T *b, T *y)                                                     \
  {                                                                           \
    for (int n = 0; n < nb; n++)                                              \
      for (int o = 0; o < f; o++)                                             \
        for (int oh = 0; oh < h; oh++)                                        \
          for (int ow = 0; ow < w; ow++)                                      \
            {                                                                 \
              T acc = b[o];                                                   \
              for (int ci = 0; ci < c; ci++)                                  \
                for (int kh = 0; kh < 3; kh++)                                \
                  for (int kw = 0; kw < 3; kw++)                              \
                    {                                                         \
                      int ih = oh + kh - 1, iw = ow + kw - 1;                 \
                      if (ih >= 0 && ih < h && iw >= 0 && iw < w)             \
                        acc += x[((n * c + ci) * h + ih) * w + iw]            \
                               * wt[((o * c + ci) * 3 + kh) * 3 + kw];        \
                    }                                                         \
              y[((n * f + o) * h + oh) * w + ow] = acc;                       \
            }                                                                 \
  }

CONV (conv_f, float)
CONV (conv_d, double)

__attribute__ ((differentiable))
void
scale (int n, int m, const float *x, const float *a, const float *c, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * m;
      float *yr = y + i * m;
      for (int j = 0; j < m; j++)
        yr[j] = a[0] * xr[j] + c[0];
    }
}

__attribute__ ((differentiable))
void
sum0 (int n, int m, int p, const double *v, double *y)
{
  for (int j = 0; j < m; j++)
    for (int k = 0; k < p; k++)
      {
        double s = 0;
        for (int i = 0; i < n; i++)
          s += v[(i * m + j) * p + k];
        y[j * p + k] = s;
      }
}

static void
check_conv (int nb, int c, int h, int w, int f)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (wt, nw, 2, -1, 1);
  tg_fill_f (b, f, 3, -1, 1);
  TG_GRADCHECK (conv_f, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv_f, "wt b", &nb, &c, &h, &w, &f, x, wt, b, y);
  double *xd = tg_alloc (nx), *wtd = tg_alloc (nw), *bd = tg_alloc (f);
  double *yd = tg_alloc (ny);
  tg_fill (xd, nx, 4, -1, 1);
  tg_fill (wtd, nw, 5, -1, 1);
  tg_fill (bd, f, 6, -1, 1);
  TG_GRADCHECK (conv_d, &nb, &c, &h, &w, &f, xd, wtd, bd, yd);
  TG_GRADCHECK_NULL (conv_d, "b", &nb, &c, &h, &w, &f, xd, wtd, bd, yd);
}

static void
check_scale (int n, int m)
{
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  float a = 0.75f, c = -0.5f;
  tg_fill_f (x, n * m, 7, -1, 1);
  TG_GRADCHECK (scale, &n, &m, x, &a, &c, y);
  TG_GRADCHECK_NULL (scale, "x c", &n, &m, x, &a, &c, y);
}

static void
check_sum0 (int n, int m, int p)
{
  double *v = tg_alloc (n * m * p), *y = tg_alloc (m * p);
  tg_fill (v, n * m * p, 8, -1, 1);
  TG_GRADCHECK (sum0, &n, &m, &p, v, y);
}

int
main (void)
{
  check_conv (3, 2, 7, 7, 2);
  check_conv (1, 1, 33, 33, 2);
  check_scale (5, 21);
  check_scale (1, 8);
  check_sum0 (5, 3, 11);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-after schedule "stage \[0-9\]+: for \\(fused\\) n < nb, o < f, ci < c, kh < 3, kw < 3, oh < h, ow < w:" } } */
/* { dg-final { scan-tensorgrad-dump-times "lanes: d_wt sums in 8 lanes of loop ow, across loop\\(s\\) oh" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "lanes: d_b sums in 8 lanes of loop ow, across loop\\(s\\) oh" 2 } } */
/* { dg-final { scan-tensorgrad-dump "lanes: d_a sums in 8 lanes of loop j, across loop\\(s\\) i" } } */
/* { dg-final { scan-tensorgrad-dump "lanes: d_c sums in 8 lanes of loop j, across loop\\(s\\) i" } } */
/* { dg-final { scan-tensorgrad-after schedule "schedule: d_wt's loops oh and ow walk a plane: oh runs just outside ow" } } */
/* { dg-final { scan-tensorgrad-after-not schedule "d_v's loops \[a-z\]+ and \[a-z\]+ walk a plane" } } */
/* { dg-final { scan-tensorgrad-backward "tensor d1: double, temporary, size p" } } */
