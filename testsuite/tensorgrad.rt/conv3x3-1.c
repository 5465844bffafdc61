/* { dg-do run } */
/* libtensorgrad's tg_conv3x3_f32/_f64 and their gradients (conv3x3.c,
   Winograd's F(2x2, 3x3)), here without a CBLAS (their products run
   their own loops; tensorgrad.blas/winograd-1.c has them on the CBLAS),
   against the direct convolution and its gradient in long double.

   Sizes with odd heights and widths (a last tile half outside), one
   pixel, one channel, a row wider than a tile: 1x1x1x1 into 1,
   2x3x9x7 into 5, 3x5x9x8 into 7, 1x2x1x5 into 3, 2x4x16x16 into 8.
   The gradient's shadows accumulate onto what they held, and a NULL
   one is skipped (each of d_x, d_wt, d_b NULL in turn); a NULL d_y adds
   nothing; zero sizes touch nothing.  */

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tg-test.h"

static void
direct (int nb, int c, int h, int w, int f, const double *x,
	const double *wt, const double *b, const double *dy, long double *y,
	long double *dx, long double *dwt, long double *db)
{
  long p = (long) h * w;
  for (int n = 0; n < nb; n++)
    for (int o = 0; o < f; o++)
      for (int oh = 0; oh < h; oh++)
	for (int ow = 0; ow < w; ow++)
	  {
	    long at = ((long) n * f + o) * p + oh * w + ow;
	    long double acc = b[o], g = dy[at];
	    db[o] += g;
	    for (int ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    int ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih < 0 || ih >= h || iw < 0 || iw >= w)
		      continue;
		    long xi = ((long) n * c + ci) * p + ih * w + iw;
		    long wi = ((long) o * c + ci) * 9 + kh * 3 + kw;
		    acc += (long double) x[xi] * wt[wi];
		    dx[xi] += g * wt[wi];
		    dwt[wi] += g * x[xi];
		  }
	    y[at] = acc;
	  }
}

/* Largest |a - r| over the largest |r| (1 when r is all zeros).  */
#define REL_ERR(a, r, n)                                                      \
  __extension__ ({                                                            \
    long double e_ = 0, m_ = 0;                                               \
    for (long i_ = 0; i_ < (n); i_++)                                         \
      {                                                                       \
	long double d_ = fabsl ((long double) (a)[i_] - (r)[i_]);             \
	e_ = d_ > e_ ? d_ : e_;                                               \
	m_ = fabsl ((r)[i_]) > m_ ? fabsl ((r)[i_]) : m_;                     \
      }                                                                       \
    (double) (e_ / (m_ > 0 ? m_ : 1));                                        \
  })

/* The size's check for element type T (float or double), tolerance
   TOL relative to the largest element.  */
#define CHECK_CONV(T, FN, GRAD, TOL)                                          \
  do                                                                          \
    {                                                                         \
      T *x = malloc (sizeof (T) * nx), *wt = malloc (sizeof (T) * nw);        \
      T *b = malloc (sizeof (T) * f), *y = malloc (sizeof (T) * ny);          \
      T *dy = malloc (sizeof (T) * ny), *dx = malloc (sizeof (T) * nx);       \
      T *dwt = malloc (sizeof (T) * nw), *db = malloc (sizeof (T) * f);       \
      for (long i = 0; i < nx; i++)                                           \
	x[i] = (T) dx_[i];                                                    \
      for (long i = 0; i < nw; i++)                                           \
	wt[i] = (T) dwt_[i];                                                  \
      for (long i = 0; i < f; i++)                                            \
	b[i] = (T) db_[i];                                                    \
      for (long i = 0; i < ny; i++)                                           \
	dy[i] = (T) dy_[i];                                                   \
      FN (nb, c, h, w, f, x, wt, b, y, NULL);                                       \
      CHECK_AT (REL_ERR (y, ry, ny) <= (TOL), f);                             \
      for (int skip = 0; skip < 4; skip++)                                    \
	{                                                                     \
	  /* Shadows start at 1: the gradient adds to them.  */               \
	  for (long i = 0; i < nx; i++)                                       \
	    dx[i] = 1;                                                        \
	  for (long i = 0; i < nw; i++)                                       \
	    dwt[i] = 1;                                                       \
	  for (long i = 0; i < f; i++)                                        \
	    db[i] = 1;                                                        \
	  GRAD (nb, c, h, w, f, x, wt, b, y, skip == 1 ? NULL : dx,           \
		skip == 2 ? NULL : dwt, skip == 3 ? NULL : db, dy, NULL);     \
	  for (long i = 0; i < nx; i++)                                       \
	    dx[i] -= 1;                                                       \
	  for (long i = 0; i < nw; i++)                                       \
	    dwt[i] -= 1;                                                      \
	  for (long i = 0; i < f; i++)                                        \
	    db[i] -= 1;                                                       \
	  if (skip == 1)                                                      \
	    CHECK_AT (REL_ERR (dx, zx, nx) == 0, skip);                       \
	  else                                                                \
	    CHECK_AT (REL_ERR (dx, rdx, nx) <= (TOL), skip);                  \
	  if (skip == 2)                                                      \
	    CHECK_AT (REL_ERR (dwt, zw, nw) == 0, skip);                      \
	  else                                                                \
	    CHECK_AT (REL_ERR (dwt, rdwt, nw) <= (TOL), skip);                \
	  if (skip == 3)                                                      \
	    CHECK_AT (REL_ERR (db, zb, f) == 0, skip);                        \
	  else                                                                \
	    CHECK_AT (REL_ERR (db, rdb, f) <= (TOL), skip);                   \
	}                                                                     \
      /* No adjoint: nothing added.  */                                   \
      memset (dx, 0, sizeof (T) * nx);                                        \
      GRAD (nb, c, h, w, f, x, wt, b, y, dx, NULL, NULL, NULL, NULL);               \
      CHECK (REL_ERR (dx, zx, nx) == 0);                                      \
      free (x), free (wt), free (b), free (y), free (dy), free (dx);          \
      free (dwt), free (db);                                                  \
    }                                                                         \
  while (0)

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  long nx = (long) nb * c * h * w, nw = (long) f * c * 9;
  long ny = (long) nb * f * h * w;
  double *dx_ = tg_alloc (nx), *dwt_ = tg_alloc (nw), *db_ = tg_alloc (f);
  double *dy_ = tg_alloc (ny);
  tg_fill (dx_, nx, seed, -1, 1);
  tg_fill (dwt_, nw, seed + 1, -1, 1);
  tg_fill (db_, f, seed + 2, -1, 1);
  tg_fill (dy_, ny, seed + 3, -1, 1);
  /* The inputs rounded to float, so that both types see the same.  */
  for (long i = 0; i < nx; i++)
    dx_[i] = (float) dx_[i];
  for (long i = 0; i < nw; i++)
    dwt_[i] = (float) dwt_[i];
  for (long i = 0; i < f; i++)
    db_[i] = (float) db_[i];
  for (long i = 0; i < ny; i++)
    dy_[i] = (float) dy_[i];
  long double *ry = calloc (ny, sizeof *ry), *rdx = calloc (nx, sizeof *rdx);
  long double *rdwt = calloc (nw, sizeof *rdwt), *rdb = calloc (f, sizeof *rdb);
  long double *zx = calloc (nx, sizeof *zx), *zw = calloc (nw, sizeof *zw);
  long double *zb = calloc (f, sizeof *zb);
  direct (nb, c, h, w, f, dx_, dwt_, db_, dy_, ry, rdx, rdwt, rdb);
  /* Each output sums at most 9 c + 1 terms of size 1, through
     transforms that add a few of them: a few ulps each.  */
  double k = 9.0 * c + 8;
  CHECK_CONV (float, tg_conv3x3_f32, tg_conv3x3_f32_grad,
	      k * 8 * FLT_EPSILON);
  CHECK_CONV (double, tg_conv3x3_f64, tg_conv3x3_f64_grad,
	      k * 8 * DBL_EPSILON);
  free (dx_), free (dwt_), free (db_), free (dy_);
  free (ry), free (rdx), free (rdwt), free (rdb), free (zx), free (zw);
  free (zb);
}

int
main (void)
{
  run (1, 1, 1, 1, 1, 1);
  run (2, 3, 9, 7, 5, 10);
  run (3, 5, 9, 8, 7, 20);
  run (1, 2, 1, 5, 3, 30);
  run (2, 4, 16, 16, 8, 40);
  /* Zero sizes: nothing touched.  */
  float y = 7, dx = 3, x = 1, wt[9] = { 1 }, b = 2, dy = 1, dwt = 5, db = 4;
  tg_conv3x3_f32 (0, 1, 1, 1, 1, &x, wt, &b, &y, NULL);
  tg_conv3x3_f32 (1, 1, 0, 1, 1, &x, wt, &b, &y, NULL);
  tg_conv3x3_f32_grad (1, 1, 1, 1, 0, &x, wt, &b, &y, &dx, &dwt, &db, &dy,
		       NULL);
  CHECK (y == 7 && dx == 3 && dwt == 5 && db == 4);
  /* No channels: y is the bias, and the gradient gives d_b alone.  */
  tg_conv3x3_f32 (1, 0, 1, 1, 1, &x, wt, &b, &y, NULL);
  CHECK (y == 2);
  tg_conv3x3_f32_grad (1, 0, 1, 1, 1, &x, wt, &b, &y, &dx, &dwt, &db, &dy,
		       NULL);
  CHECK (db == 5 && dx == 3 && dwt == 5);
  return tg_exit ();
}
