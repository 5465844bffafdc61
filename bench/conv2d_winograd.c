/* conv2d_winograd.c -- bench/conv2d.c's convolution (NCHW, 3x3 filters,
   stride 1, zero padding 1, a bias per filter, float) and its gradient by
   Winograd's F(2x2, 3x3), written by hand on a CBLAS: the measured target
   for the plugin's lowering of such a convolution (issue 16: conv2d's
   training step is 1.4 x PyTorch's with the plugin's im2col products,
   whose sgemm kernel alone runs at the machine's peak).

   Forward: U = G g G^T per filter pair (4 x 4), V = B^T d B per input
   tile (4 x 4 from rows 2ty-1 .. 2ty+2, zeros outside), then for each of
   the 16 points xi one product M[xi] (f x tiles) = U[xi] (f x c) V[xi]
   (c x tiles), and y = A^T M A + b per 2 x 2 output tile: 2.25 times
   fewer multiplications in the products than the direct form.
   Gradient: the adjoint of the same steps, dM = A d_y A^T, d_U[xi] +=
   dM[xi] V[xi]^T, dV[xi] = U[xi]^T dM[xi], d_x += B dV B^T over the
   overlapping tiles, d_wt += G^T d_U G, d_b the sum of d_y.

   One image at a time (the products then fit the cache: 32 x 256 x 32
   each at the bench's size).  The 16 points' slices of V and M are PAD
   floats more than their c x tiles (f x tiles) apart: at exactly 32 KB
   apart the transforms' 16 streams meet in one cache set, which took the
   gradient from 2.8 ms to 5.0.

   make bench-winograd builds it with the CBLAS configure found and runs
   it on one thread: the largest relative difference of y, d_x and d_wt
   from the direct convolution in double (exit status 1 over 1e-5), then
   the fastest forward, gradient and their sum over ITERS calls.

     conv2d-winograd [NB C H W F [ITERS]]     (default 8 32 32 32 32 100)
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PAD
#define PAD 32
#endif

void cblas_sgemm (int, int, int, int, int, int, float, const float *, int,
                  const float *, int, float, float *, int);
static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* V[xi * XISTRIDE + T0 + ty * tw + tx] = (B^T d B)[xi] of each tile d
   of IMG (H x W, zeros outside).  */
static void
in_transform (int h, int w, const float *img, float *V, long xistride, long t0)
{
  int th = (h + 1) / 2, tw = (w + 1) / 2, W2 = 2 * tw + 2;
  float r[4][W2 + 2], t[4][W2 + 2];
  for (int ty = 0; ty < th; ty++)
    {
      for (int i = 0; i < 4; i++)
        {
          int ih = 2 * ty - 1 + i;
          float *ri = r[i];
          memset (ri, 0, sizeof (float) * (W2 + 2));
          if (ih >= 0 && ih < h)
            memcpy (ri + 1, img + (long)ih * w, sizeof (float) * w);
        }
      for (int c = 0; c < W2; c++)
        {
          t[0][c] = r[0][c] - r[2][c];
          t[1][c] = r[1][c] + r[2][c];
          t[2][c] = r[2][c] - r[1][c];
          t[3][c] = r[1][c] - r[3][c];
        }
      for (int i = 0; i < 4; i++)
        {
          float *v0 = V + (i * 4 + 0) * xistride + t0 + ty * tw;
          float *v1 = v0 + xistride, *v2 = v1 + xistride, *v3 = v2 + xistride;
          const float *ti = t[i];
          for (int tx = 0; tx < tw; tx++)
            {
              float a = ti[2 * tx], b = ti[2 * tx + 1], c = ti[2 * tx + 2],
                    d = ti[2 * tx + 3];
              v0[tx] = a - c;
              v1[tx] = b + c;
              v2[tx] = c - b;
              v3[tx] = b - d;
            }
        }
    }
}

/* y (h x w) = A^T M A (+ bias), M[xi][t0 + tile] */
static void
out_transform (int h, int w, const float *M, long xistride, long t0,
               float bias, float *img)
{
  int th = (h + 1) / 2, tw = (w + 1) / 2;
  float s[4][tw], u[4][tw], y0[2 * tw], y1[2 * tw];
  for (int ty = 0; ty < th; ty++)
    {
      for (int j = 0; j < 4; j++)
        {
          const float *m0 = M + j * xistride + t0 + ty * tw,
                      *m1 = m0 + 4 * xistride, *m2 = m1 + 4 * xistride,
                      *m3 = m2 + 4 * xistride;
          for (int tx = 0; tx < tw; tx++)
            {
              s[j][tx] = m0[tx] + m1[tx] + m2[tx];
              u[j][tx] = m1[tx] - m2[tx] - m3[tx];
            }
        }
      for (int tx = 0; tx < tw; tx++)
        {
          y0[2 * tx] = s[0][tx] + s[1][tx] + s[2][tx] + bias;
          y0[2 * tx + 1] = s[1][tx] - s[2][tx] - s[3][tx] + bias;
          y1[2 * tx] = u[0][tx] + u[1][tx] + u[2][tx] + bias;
          y1[2 * tx + 1] = u[1][tx] - u[2][tx] - u[3][tx] + bias;
        }
      memcpy (img + (long)2 * ty * w, y0, sizeof (float) * w);
      if (2 * ty + 1 < h)
        memcpy (img + (long)(2 * ty + 1) * w, y1, sizeof (float) * w);
    }
}

/* dM[xi][t0 + tile] = A dY A^T (adjoint of out_transform) */
static void
out_adjoint (int h, int w, const float *dimg, float *dM, long xistride,
             long t0)
{
  int th = (h + 1) / 2, tw = (w + 1) / 2;
  float e0[2 * tw + 2], e1[2 * tw + 2];
  for (int ty = 0; ty < th; ty++)
    {
      memset (e0, 0, sizeof e0);
      memset (e1, 0, sizeof e1);
      memcpy (e0, dimg + (long)2 * ty * w, sizeof (float) * w);
      if (2 * ty + 1 < h)
        memcpy (e1, dimg + (long)(2 * ty + 1) * w, sizeof (float) * w);
      float *restrict base = dM + t0 + ty * tw;
      for (int tx = 0; tx < tw; tx++)
        {
          float a0 = e0[2 * tx], a1 = e0[2 * tx + 1], b0 = e1[2 * tx],
                b1 = e1[2 * tx + 1];
          float q0[4] = { a0, a0 + a1, a0 - a1, -a1 };
          float q1[4] = { b0, b0 + b1, b0 - b1, -b1 };
          for (int j = 0; j < 4; j++)
            {
              base[j * xistride + tx] = q0[j];
              base[(4 + j) * xistride + tx] = q0[j] + q1[j];
              base[(8 + j) * xistride + tx] = q0[j] - q1[j];
              base[(12 + j) * xistride + tx] = -q1[j];
            }
        }
    }
}

/* d_img += B dV B^T scattered over the overlapping tiles (adjoint of
 * in_transform) */
static void
in_adjoint (int h, int w, const float *dV, long xistride, long t0, float *dimg)
{
  int th = (h + 1) / 2, tw = (w + 1) / 2, W2 = 2 * tw + 2;
  float dd[4][4][tw + 1];
  float acc[4][W2], prev[2][W2];
  memset (prev, 0, sizeof prev);
  for (int ty = 0; ty < th; ty++)
    {
      const float *restrict v = dV + t0 + ty * tw;
      for (int tx = 0; tx < tw; tx++)
        {
          float p[4][4];
          for (int i = 0; i < 4; i++)
            {
              float v0 = v[(i * 4) * xistride + tx],
                    v1 = v[(i * 4 + 1) * xistride + tx],
                    v2 = v[(i * 4 + 2) * xistride + tx],
                    v3 = v[(i * 4 + 3) * xistride + tx];
              p[i][0] = v0;
              p[i][1] = v1 - v2 + v3;
              p[i][2] = v1 + v2 - v0;
              p[i][3] = -v3;
            }
          for (int cc = 0; cc < 4; cc++)
            {
              dd[0][cc][tx] = p[0][cc];
              dd[1][cc][tx] = p[1][cc] - p[2][cc] + p[3][cc];
              dd[2][cc][tx] = p[1][cc] + p[2][cc] - p[0][cc];
              dd[3][cc][tx] = -p[3][cc];
            }
        }
      for (int r = 0; r < 4; r++)
        {
          float *ar = acc[r];
          ar[0] = dd[r][0][0];
          ar[1] = dd[r][1][0];
          for (int tx = 1; tx < tw; tx++)
            {
              ar[2 * tx] = dd[r][0][tx] + dd[r][2][tx - 1];
              ar[2 * tx + 1] = dd[r][1][tx] + dd[r][3][tx - 1];
            }
          ar[2 * tw] = dd[r][2][tw - 1];
          ar[2 * tw + 1] = dd[r][3][tw - 1];
        }
      for (int c = 0; c < W2; c++)
        {
          acc[0][c] += prev[0][c];
          acc[1][c] += prev[1][c];
        }
      for (int rr = 0; rr < 2; rr++)
        {
          int ih = 2 * ty - 1 + rr;
          if (ih >= 0 && ih < h)
            {
              float *restrict di = dimg + (long)ih * w;
              for (int iw = 0; iw < w; iw++)
                di[iw] += acc[rr][iw + 1];
            }
        }
      memcpy (prev[0], acc[2], sizeof (float) * W2);
      memcpy (prev[1], acc[3], sizeof (float) * W2);
    }
  for (int rr = 0; rr < 2; rr++)
    {
      int ih = 2 * th - 1 + rr;
      if (ih >= 0 && ih < h)
        for (int iw = 0; iw < w; iw++)
          dimg[(long)ih * w + iw] += prev[rr][iw + 1];
    }
}

static void
filter_transform (int f, int c, const float *wt, float *U)
{
  for (int o = 0; o < f; o++)
    for (int ci = 0; ci < c; ci++)
      {
        const float *g = wt + ((long)o * c + ci) * 9;
        float t[4][3];
        for (int j = 0; j < 3; j++)
          {
            t[0][j] = g[j];
            t[1][j] = .5f * (g[j] + g[3 + j] + g[6 + j]);
            t[2][j] = .5f * (g[j] - g[3 + j] + g[6 + j]);
            t[3][j] = g[6 + j];
          }
        for (int i = 0; i < 4; i++)
          {
            float u[4] = { t[i][0], .5f * (t[i][0] + t[i][1] + t[i][2]),
                           .5f * (t[i][0] - t[i][1] + t[i][2]), t[i][2] };
            for (int j = 0; j < 4; j++)
              U[((long)(i * 4 + j) * f + o) * c + ci] = u[j];
          }
      }
}

/* d_wt += G^T dU G */
static void
filter_adjoint (int f, int c, const float *dU, float *dwt)
{
  for (int o = 0; o < f; o++)
    for (int ci = 0; ci < c; ci++)
      {
        float d[4][4];
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 4; j++)
            d[i][j] = dU[((long)(i * 4 + j) * f + o) * c + ci];
        /* q[i][b] = sum_j d[i][j] G[j][b]; G rows:
         * [1,0,0],[.5,.5,.5],[.5,-.5,.5],[0,0,1] */
        float q[4][3];
        for (int i = 0; i < 4; i++)
          {
            q[i][0] = d[i][0] + .5f * (d[i][1] + d[i][2]);
            q[i][1] = .5f * (d[i][1] - d[i][2]);
            q[i][2] = .5f * (d[i][1] + d[i][2]) + d[i][3];
          }
        float *g = dwt + ((long)o * c + ci) * 9;
        for (int b = 0; b < 3; b++)
          {
            g[0 * 3 + b] += q[0][b] + .5f * (q[1][b] + q[2][b]);
            g[1 * 3 + b] += .5f * (q[1][b] - q[2][b]);
            g[2 * 3 + b] += .5f * (q[1][b] + q[2][b]) + q[3][b];
          }
      }
}

struct ws
{
  float *U, *V, *M, *dU;
};

static void
wg_forward (int nb, int c, int h, int w, int f, const float *x,
            const float *wt, const float *b, float *y, struct ws *s)
{
  long TI = (long)((h + 1) / 2) * ((w + 1) / 2), P = (long)h * w;
  long VS = c * TI + PAD, MS = f * TI + PAD;
  filter_transform (f, c, wt, s->U);
  for (int n = 0; n < nb; n++)
    {
      for (int ci = 0; ci < c; ci++)
        in_transform (h, w, x + ((long)n * c + ci) * P, s->V + ci * TI, VS, 0);
      for (int xi = 0; xi < 16; xi++)
        cblas_sgemm (101, 111, 111, f, TI, c, 1, s->U + (long)xi * f * c, c,
                     s->V + xi * VS, TI, 0, s->M + xi * MS, TI);
      for (int o = 0; o < f; o++)
        out_transform (h, w, s->M + o * TI, MS, 0, b[o],
                       y + ((long)n * f + o) * P);
    }
}

static void
wg_grad (int nb, int c, int h, int w, int f, const float *x, const float *wt,
         float *dx, float *dwt, float *db, const float *dy, struct ws *s)
{
  long TI = (long)((h + 1) / 2) * ((w + 1) / 2), P = (long)h * w;
  long VS = c * TI + PAD, MS = f * TI + PAD;
  filter_transform (f, c, wt, s->U);
  memset (s->dU, 0, sizeof (float) * 16 * f * c);
  for (int n = 0; n < nb; n++)
    {
      for (int o = 0; o < f; o++)
        {
          const float *d = dy + ((long)n * f + o) * P;
          float acc = 0;
          for (long p = 0; p < P; p++)
            acc += d[p];
          db[o] += acc;
          out_adjoint (h, w, d, s->M + o * TI, MS, 0);
        }
      for (int ci = 0; ci < c; ci++)
        in_transform (h, w, x + ((long)n * c + ci) * P, s->V + ci * TI, VS, 0);
      for (int xi = 0; xi < 16; xi++)
        {
          /* dU[xi] (f x c) += dM[xi] (f x T) V[xi]^T */
          cblas_sgemm (101, 111, 112, f, c, TI, 1, s->M + xi * MS, TI,
                       s->V + xi * VS, TI, 1, s->dU + (long)xi * f * c, c);
          /* dV[xi] (c x T) = U[xi]^T (c x f) dM[xi] (f x T); V's buffer reused
           */
          cblas_sgemm (101, 112, 111, c, TI, f, 1, s->U + (long)xi * f * c, c,
                       s->M + xi * MS, TI, 0, s->V + xi * VS, TI);
        }
      for (int ci = 0; ci < c; ci++)
        in_adjoint (h, w, s->V + ci * TI, VS, 0, dx + ((long)n * c + ci) * P);
    }
  filter_adjoint (f, c, s->dU, dwt);
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
  long P = (long)h * w, TI = (long)((h + 1) / 2) * ((w + 1) / 2);
  float *x = malloc (4 * nb * c * P), *wt = malloc (4 * f * c * 9),
        *b = malloc (4 * f), *y = malloc (4 * nb * f * P),
        *dy = malloc (4 * nb * f * P), *dx = calloc (nb * c * P, 4),
        *dwt = calloc (f * c * 9, 4), *db = calloc (f, 4);
  /* U and d_U: 16 f x c; V (dV in the gradient): 16 slices of c x TI,
     VS apart; M (dM): 16 slices of f x TI, MS apart.  */
  struct ws s = { malloc (4 * 16 * f * c), malloc (4 * 16 * (c * TI + PAD)),
                  malloc (4 * 16 * (f * TI + PAD)), malloc (4 * 16 * f * c) };
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
  wg_forward (nb, c, h, w, f, x, wt, b, y, &s);
  wg_grad (nb, c, h, w, f, x, wt, dx, dwt, db, dy, &s);
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
      wg_forward (nb, c, h, w, f, x, wt, b, y, &s);
      double t1 = now ();
      wg_grad (nb, c, h, w, f, x, wt, dx, dwt, db, dy, &s);
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
  free (db), free (s.U), free (s.V), free (s.M), free (s.dU);
  free (ry), free (rdx), free (rdw);
  return 0;
}
