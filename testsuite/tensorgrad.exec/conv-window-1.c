/* { dg-do run } */
/* A 3 x 3 convolution as bench/conv2d.c writes it (float, zero padding
   by a bounds check, constant window): the gradient's statements run
   with the image row innermost, not the 3-wide window (schedule.c's
   penalty of a short constant loop), and the image's rows just outside
   it (the plane, schedule.c step 2b), so d_x is an axpy along the row
   and d_w sums in lanes of it across the plane; the padding's bounds
   test clips the tap's rows and the row's pixels (clip.c) instead of
   being tested per pixel.  Rows of 11 and 3 pixels (a rest, no whole
   block); checked against central differences, also with NULL
   shadows.  */
/* The loops, not the tiled products over the patches (patches.c):
   no-tiled.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */

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

static void
check (int nb, int c, int h, int w, int f)
{
  float *x = tg_alloc_f (nb * c * h * w), *wt = tg_alloc_f (f * c * 9);
  float *b = tg_alloc_f (f), *y = tg_alloc_f (nb * f * h * w);
  tg_fill_f (x, nb * c * h * w, 1, -1, 1);
  tg_fill_f (wt, f * c * 9, 2, -1, 1);
  tg_fill_f (b, f, 3, -1, 1);
  TG_GRADCHECK (conv, &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "x", &nb, &c, &h, &w, &f, x, wt, b, y);
  TG_GRADCHECK_NULL (conv, "wt b", &nb, &c, &h, &w, &f, x, wt, b, y);
}

int
main (void)
{
  check (2, 2, 4, 11, 3);
  check (1, 3, 3, 3, 2);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-backward "for ci < c, kh < 3, kw < 3, max \\\(0, 1 - kh\\\) <= oh < min \\\(h, 1 \\\+ h - kh\\\), max \\\(0, 1 - kw\\\) <= ow < min \\\(w, 1 \\\+ w - kw\\\): d_x\\\[" } } */
/* { dg-final { scan-tensorgrad-dump "lanes: d_wt sums in 8 lanes of loop ow, across loop\\(s\\) oh" } } */
