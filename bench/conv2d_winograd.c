/* conv2d_winograd.c -- libtensorgrad's Winograd F(2x2, 3x3) convolution
   (lib/runtime/conv3x3.c: tg_conv3x3_f32 and its gradient, which the
   code -fplugin-arg-tensorgrad-winograd makes calls) on bench/conv2d.c's
   shapes (NCHW, 3x3 filters, stride 1, zero padding 1, a bias per
   filter, float), its products cblas_sgemm: checked against the direct
   form in double, then timed.

   make bench-winograd builds it with the CBLAS configure found and the
   built libtensorgrad and runs it on one thread (OMP_NUM_THREADS=1,
   OPENBLAS_NUM_THREADS=1): the largest relative difference of y, d_x and
   d_wt from the direct convolution in double (exit status 1 over 1e-5),
   then the fastest forward, gradient and their sum over ITERS calls.

     conv2d-winograd [NB C H W F [ITERS]]     (default 8 32 32 32 32 100)
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorgrad.h"

void cblas_sgemm (int, int, int, int, int, int, float, const float *, int,
                  const float *, int, float, float *, int);

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* direct reference in double */
static void
ref (int nb, int c, int h, int w, int f, const float *x, const float *wt,
     const float *b, const float *dy, double *y, double *dx, double *dwt)
{
  long P = (long)h * w;
  memset (dx, 0, sizeof (double) * nb * c * P);
  memset (dwt, 0, sizeof (double) * f * c * 9);
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
        for (int ow = 0; ow < w; ow++)
          {
            double acc = b[o];
            double g = dy[((long)n * f + o) * P + oh * w + ow];
            for (int ci = 0; ci < c; ci++)
              for (int kh = 0; kh < 3; kh++)
                for (int kw = 0; kw < 3; kw++)
                  {
                    int ih = oh + kh - 1, iw = ow + kw - 1;
                    if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                      continue;
                    long xi = ((long)n * c + ci) * P + ih * w + iw,
                         wi = ((long)o * c + ci) * 9 + kh * 3 + kw;
                    acc += (double)x[xi] * wt[wi];
                    dx[xi] += g * wt[wi];
                    dwt[wi] += g * x[xi];
                  }
            y[((long)n * f + o) * P + oh * w + ow] = acc;
          }
}

int
main (int argc, char **argv)
{
  int nb = argc > 1 ? atoi (argv[1]) : 8, c = argc > 2 ? atoi (argv[2]) : 32,
      h = argc > 3 ? atoi (argv[3]) : 32, w = argc > 4 ? atoi (argv[4]) : 32,
      f = argc > 5 ? atoi (argv[5]) : 32,
      iters = argc > 6 ? atoi (argv[6]) : 100;
  long P = (long)h * w;
  float *x = malloc (4 * nb * c * P), *wt = malloc (4 * f * c * 9),
        *b = malloc (4 * f), *y = malloc (4 * nb * f * P),
        *dy = malloc (4 * nb * f * P), *dx = calloc (nb * c * P, 4),
        *dwt = calloc (f * c * 9, 4), *db = calloc (f, 4);
  srand (1);
  for (long i = 0; i < nb * c * P; i++)
    x[i] = rand () / (float)RAND_MAX - .5f;
  for (long i = 0; i < f * c * 9; i++)
    wt[i] = rand () / (float)RAND_MAX - .5f;
  for (long i = 0; i < nb * f * P; i++)
    dy[i] = rand () / (float)RAND_MAX - .5f;
  for (int i = 0; i < f; i++)
    b[i] = i * .01f;
  double *ry = malloc (8 * nb * f * P), *rdx = malloc (8 * nb * c * P),
         *rdw = malloc (8 * f * c * 9);
  ref (nb, c, h, w, f, x, wt, b, dy, ry, rdx, rdw);
  tg_sgemm_fn *gemm = (tg_sgemm_fn *) cblas_sgemm;
  tg_conv3x3_f32 (nb, c, h, w, f, x, wt, b, y, gemm);
  tg_conv3x3_f32_grad (nb, c, h, w, f, x, wt, b, y, dx, dwt, db, dy, gemm);
  double e1 = 0, e2 = 0, e3 = 0, m1 = 0, m2 = 0, m3 = 0;
  for (long i = 0; i < nb * f * P; i++)
    {
      e1 = fmax (e1, fabs (y[i] - ry[i]));
      m1 = fmax (m1, fabs (ry[i]));
    }
  for (long i = 0; i < nb * c * P; i++)
    {
      e2 = fmax (e2, fabs (dx[i] - rdx[i]));
      m2 = fmax (m2, fabs (rdx[i]));
    }
  for (long i = 0; i < f * c * 9; i++)
    {
      e3 = fmax (e3, fabs (dwt[i] - rdw[i]));
      m3 = fmax (m3, fabs (rdw[i]));
    }
  double worst = fmax (e1 / m1, fmax (e2 / m2, e3 / m3));
  printf ("conv2d-winograd %dx%dx%dx%d, %d 3x3 filters: largest relative "
          "difference y %.2g d_x %.2g d_wt %.2g\n",
          nb, c, h, w, f, e1 / m1, e2 / m2, e3 / m3);
  if (!(worst <= 1e-5))
    return 1;
  double bf = 1e9, bg = 1e9;
  for (int it = 0; it < iters; it++)
    {
      double t0 = now ();
      tg_conv3x3_f32 (nb, c, h, w, f, x, wt, b, y, gemm);
      double t1 = now ();
      tg_conv3x3_f32_grad (nb, c, h, w, f, x, wt, b, y, dx, dwt, db, dy,
                           gemm);
      double t2 = now ();
      if (t1 - t0 < bf)
        bf = t1 - t0;
      if (t2 - t1 < bg)
        bg = t2 - t1;
    }
  printf ("conv2d-winograd: forward %.3f ms, gradient %.3f ms, step %.3f ms "
          "(fastest of %d)\n",
          bf * 1e3, bg * 1e3, (bf + bg) * 1e3, iters);
  free (x), free (wt), free (b), free (y), free (dy), free (dx), free (dwt);
  free (db);
  free (ry), free (rdx), free (rdw);
  return 0;
}
