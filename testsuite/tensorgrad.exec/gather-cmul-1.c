/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A complex gain applied to every row of interleaved (re, im) samples,
   as signal-processing code writes it: the real and imaginary parts are
   two statements, so each element of the gains' gradient gets terms from
   both.  rows.c runs their nests as one and gather.c adds the two
   terms to d_w[2k] (and to d_w[2k + 1]) as one statement.  With two
   additions per element, GCC 12.2 at -O3 unrolled the loop over the
   PAIRS gains, kept d_w's four elements in registers across the rows and
   vectorized the rows into in-order reductions that counted terms twice:
   the torture's -O3 run of cgain failed (fuzz seed 1206001, kernel
   1063).  cgain_f in float, cgain_n with the pairs a run-time count, a
   row pointer offset into the batch; the gains' and the samples'
   gradients alone (NULL shadows) too.  stereo_gain, a gain per channel
   of interleaved stereo frames (two stores reading w[k]), failed at -O3
   the same way.  */

#include "tg-test.h"

#define PAIRS 2

__attribute__ ((differentiable))
void
cgain (int rows, const double *x, const double *w, double *y)
{
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < PAIRS; k++)
      {
        double a = x[r * 2 * PAIRS + 2 * k], b = x[r * 2 * PAIRS + 2 * k + 1];
        double c = w[2 * k], s = w[2 * k + 1];
        y[r * 2 * PAIRS + 2 * k] = a * c - b * s;
        y[r * 2 * PAIRS + 2 * k + 1] = a * s + b * c;
      }
}

__attribute__ ((differentiable))
void
cgain_f (int rows, const float *x, const float *w, float *y)
{
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < PAIRS; k++)
      {
        float a = x[r * 2 * PAIRS + 2 * k], b = x[r * 2 * PAIRS + 2 * k + 1];
        float c = w[2 * k], s = w[2 * k + 1];
        y[r * 2 * PAIRS + 2 * k] = a * c - b * s;
        y[r * 2 * PAIRS + 2 * k + 1] = a * s + b * c;
      }
}

__attribute__ ((differentiable))
void
cgain_n (int rows, int pairs, const double *x, const double *w, double *y)
{
  for (int r = 0; r < rows; r++)
    {
      const double *xr = x + 2 * pairs * r;
      double *yr = y + 2 * pairs * r;
      for (int k = 0; k < pairs; k++)
        {
          yr[2 * k] = xr[2 * k] * w[2 * k] - xr[2 * k + 1] * w[2 * k + 1];
          yr[2 * k + 1] = xr[2 * k] * w[2 * k + 1] + xr[2 * k + 1] * w[2 * k];
        }
    }
}

#define CH 2

__attribute__ ((differentiable))
void
stereo_gain (int frames, const double *x, const double *w, double *y)
{
  for (int r = 0; r < frames; r++)
    for (int k = 0; k < CH; k++)
      {
        y[r * 2 * CH + 2 * k] = x[r * 2 * CH + 2 * k] * w[k];
        y[r * 2 * CH + 2 * k + 1] = x[r * 2 * CH + 2 * k + 1] * w[k];
      }
}

int
main (void)
{
  int rows = 7;
  double *x = tg_alloc (rows * 2 * PAIRS), *w = tg_alloc (2 * PAIRS);
  double *y = tg_alloc (rows * 2 * PAIRS);
  tg_fill (x, rows * 2 * PAIRS, 1, -1, 1);
  tg_fill (w, 2 * PAIRS, 2, -1, 1);
  TG_GRADCHECK (cgain, &rows, x, w, y);
  TG_GRADCHECK_NULL (cgain, "x", &rows, x, w, y);
  TG_GRADCHECK_NULL (cgain, "w", &rows, x, w, y);

  int frows = 9;
  float *xf = tg_alloc_f (frows * 2 * PAIRS), *wf = tg_alloc_f (2 * PAIRS);
  float *yf = tg_alloc_f (frows * 2 * PAIRS);
  tg_fill_f (xf, frows * 2 * PAIRS, 3, -1, 1);
  tg_fill_f (wf, 2 * PAIRS, 4, -1, 1);
  TG_GRADCHECK (cgain_f, &frows, xf, wf, yf);

  int nrows = 5, pairs = 3;
  double *xn = tg_alloc (nrows * 2 * pairs), *wn = tg_alloc (2 * pairs);
  double *yn = tg_alloc (nrows * 2 * pairs);
  tg_fill (xn, nrows * 2 * pairs, 5, -1, 1);
  tg_fill (wn, 2 * pairs, 6, -1, 1);
  TG_GRADCHECK (cgain_n, &nrows, &pairs, xn, wn, yn);
  TG_GRADCHECK_NULL (cgain_n, "x", &nrows, &pairs, xn, wn, yn);

  int frames = 11;
  double *xs = tg_alloc (frames * 2 * CH), *ws = tg_alloc (CH);
  double *ys = tg_alloc (frames * 2 * CH);
  tg_fill (xs, frames * 2 * CH, 7, -1, 1);
  tg_fill (ws, CH, 8, -1, 1);
  TG_GRADCHECK (stereo_gain, &frames, xs, ws, ys);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "gather: stage \[0-9\]+ adds statement \[0-9\]+'s terms of d_w in statement \[0-9\]+, at the same element" 7 } } */
