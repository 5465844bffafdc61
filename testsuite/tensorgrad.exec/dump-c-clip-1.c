/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-clip-1.gen.c -fplugin-arg-tensorgrad-dump -I." } */
/* { dg-additional-sources "dump-c-clip-1-aux.c" } */
/* Loops clipped by a padding's bounds test (lib/passes/clip.c) in both
   back ends: a 3 x 3 convolution with zero padding as bench/conv2d.c
   writes it, float; the C file's gradient (dump-c-clip-1-aux.c) and the
   injected one run the taps' rows and pixels over the same ranges, in
   lanes, and agree to the last bit, also with NULL shadows; images of
   1 x 1 (every tap but the centre empty), 3 x 2 and 4 x 11 (a block of
   lanes and a rest).  TG_GRADCHECK checks the injected gradient against
   central differences.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv (int nb, int c, int h, int w, int f, const float *x, const float *wt,
      const float *b, float *y)
{
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
        for (int ow = 0; ow < w; ow++)
          {
            float acc = b[o];
            for (int ci = 0; ci < c; ci++)
              for (int kh = 0; kh < 3; kh++)
                for (int kw = 0; kw < 3; kw++)
                  {
                    int ih = oh + kh - 1, iw = ow + kw - 1;
                    if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                      acc += x[((n * c + ci) * h + ih) * w + iw]
                             * wt[((o * c + ci) * 3 + kh) * 3 + kw];
                  }
            y[((n * f + o) * h + oh) * w + ow] = acc;
          }
}

void conv_grad_c (int nb, int c, int h, int w, int f, const float *x,
                  const float *wt, const float *b, float *y, float *d_x,
                  float *d_wt, float *d_b, float *d_y);

static void
same_f (const float *a, const float *b, int n)
{
  for (int i = 0; i < n; i++)
    CHECK (a[i] == b[i]);
}

static void
check (int nb, int c, int h, int w, int f)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  float *x = tg_alloc_f (nx), *wt = tg_alloc_f (nw), *b = tg_alloc_f (f);
  float *y = tg_alloc_f (ny), *dy = tg_alloc_f (ny);
  tg_fill_f (x, nx, 1, -1, 1);
  tg_fill_f (wt, nw, 2, -1, 1);
  tg_fill_f (b, f, 3, -1, 1);
  tg_fill_f (dy, ny, 4, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  conv (nb, c, h, w, f, x, wt, b, y);
  float *dx1 = tg_alloc_f (nx), *dx2 = tg_alloc_f (nx), *dx3 = tg_alloc_f (nx);
  float *dw1 = tg_alloc_f (nw), *dw2 = tg_alloc_f (nw), *dw3 = tg_alloc_f (nw);
  float *db1 = tg_alloc_f (f), *db2 = tg_alloc_f (f);
  conv_grad (nb, c, h, w, f, x, wt, b, y, dx1, dw1, db1, dy);
  conv_grad_c (nb, c, h, w, f, x, wt, b, y, dx2, dw2, db2, dy);
  same_f (dx1, dx2, nx);
  same_f (dw1, dw2, nw);
  same_f (db1, db2, f);
  conv_grad_c (nb, c, h, w, f, x, wt, b, y, dx3, NULL, NULL, dy);
  conv_grad_c (nb, c, h, w, f, x, wt, b, y, NULL, dw3, NULL, dy);
  same_f (dx1, dx3, nx);
  same_f (dw1, dw3, nw);
}

int
main (void)
{
  check (1, 1, 1, 1, 1);
  check (1, 2, 3, 2, 2);
  check (2, 2, 4, 11, 3);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-after clip "clip: the loop over oh runs where its statements' guards hold, 2 test\\(s\\) fewer" } } */
/* { dg-final { scan-tensorgrad-file dump-c-clip-1.gen.c "for \\(long oh = 0 >= 1 - kh \\? 0 : 1 - kh; " } } */
