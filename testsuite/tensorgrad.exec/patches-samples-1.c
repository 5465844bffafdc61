/* { dg-do run } */
/* A padded 3 x 3 convolution's gradient runs one sample at a time
   (lib/passes/samples.c): the product into d_x.col (wt^T d_y[n]), col2im
   into d_x, im2col of x into x.col and the product into d_wt
   (d_y[n] x.col^T) for sample n, then sample n + 1, so d_x.col and
   x.col hold one sample's patches (c 9 h w elements), not the batch's.
   The kernel is written with pointers to its rows and the padding as a
   continue, float and double; a bias.  The link wraps malloc (every
   block filled with NaNs: an element read before it is written shows)
   and calloc, and records the sizes the gradient allocates: one
   sample's patches (x.col's rows a cache line longer than h w), never
   the batch's.  Sizes where the tiled products
   run (3 samples of 4 channels of 11 x 13 into 8), their loops (2 of 3
   channels of 4 x 5 into 3; 1 channel of 1 x 1), one sample; every
   component against central differences, also with d_x, d_wt or d_y
   NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc -Wl,--wrap=calloc" } */

#include "tg-test.h"

#include <stddef.h>
#include <string.h>

static size_t sizes[256];
static int nsizes, recording;

void *__real_malloc (size_t);
void *__real_calloc (size_t, size_t);

void *
__wrap_malloc (size_t n)
{
  void *p = __real_malloc (n);
  if (p)
    memset (p, 0xff, n);
  if (recording && nsizes < 256)
    sizes[nsizes++] = n;
  return p;
}

void *
__wrap_calloc (size_t n, size_t m)
{
  if (recording && nsizes < 256)
    sizes[nsizes++] = n * m;
  return __real_calloc (n, m);
}

#define CONV(NAME, T)							\
  __attribute__ ((differentiable)) void					\
  NAME (int nb, int c, int h, int w, int f, const T *x, const T *wt,	\
	const T *b, T *y)						\
  {									\
    for (int n = 0; n < nb; n++)					\
      for (int o = 0; o < f; o++)					\
	{								\
	  const T *wo = wt + o * c * 9;					\
	  T *yo = y + (n * f + o) * h * w;				\
	  for (int oh = 0; oh < h; oh++)				\
	    for (int ow = 0; ow < w; ow++)				\
	      {								\
		T acc = b[o];						\
		for (int ci = 0; ci < c; ci++)				\
		  {							\
		    const T *xc = x + (n * c + ci) * h * w;		\
		    for (int kh = 0; kh < 3; kh++)			\
		      {							\
			int ih = oh + kh - 1;				\
			if (ih < 0 || ih >= h)				\
			  continue;					\
			for (int kw = 0; kw < 3; kw++)			\
			  {						\
			    int iw = ow + kw - 1;			\
			    if (iw < 0 || iw >= w)			\
			      continue;					\
			    acc += xc[ih * w + iw] * wo[ci * 9 + kh * 3 + kw]; \
			  }						\
		      }							\
		  }							\
		yo[oh * w + ow] = acc;					\
	      }								\
	}								\
  }

CONV (conv_f, float)
CONV (conv_d, double)

void conv_f_grad (int, int, int, int, int, const float *, const float *,
		  const float *, float *, float *, float *, float *, float *);
void conv_d_grad (int, int, int, int, int, const double *, const double *,
		  const double *, double *, double *, double *, double *,
		  double *);

/* Did the last recorded gradient allocate one sample's patches of
   ELEM-byte elements, d_x.col's rows of h w and x.col's a cache line
   longer (te_gemm_patches), and never the batch's?  */
static void
check_sizes (int nb, int c, int h, int w, size_t elem)
{
  size_t dcol = (size_t) c * 9 * h * w * elem;
  size_t xcol = (size_t) c * 9 * (h * w * elem + 64);
  int seen_d = 0, seen_x = 0;
  for (int i = 0; i < nsizes; i++)
    {
      seen_d += sizes[i] == dcol;
      seen_x += sizes[i] == xcol;
      if (nb > 1)
	CHECK (sizes[i] != nb * dcol && sizes[i] != nb * xcol);
    }
  CHECK (seen_d == 1 && seen_x == 1);
}

/* Gradient check of conv_T (NAME), with d_x, d_wt or d_y NULL too,
   then one recorded gradient and its allocations.  */
#define RUN(NAME, T, ALLOC, FILL, SEED)					\
  do									\
    {									\
      T *x = ALLOC (nx), *wt = ALLOC (nw), *b = ALLOC (f);		\
      T *y = ALLOC (ny), *d_x = ALLOC (nx), *d_wt = ALLOC (nw);		\
      T *d_b = ALLOC (f), *d_y = ALLOC (ny);				\
      FILL (x, nx, SEED, -1, 1);					\
      FILL (wt, nw, SEED + 1, -1, 1);					\
      FILL (b, f, SEED + 2, -1, 1);					\
      FILL (d_y, ny, SEED + 3, -1, 1);					\
      TG_GRADCHECK (NAME, &nb, &c, &h, &w, &f, x, wt, b, y);		\
      TG_GRADCHECK_NULL (NAME, "x", &nb, &c, &h, &w, &f, x, wt, b, y);	\
      TG_GRADCHECK_NULL (NAME, "wt", &nb, &c, &h, &w, &f, x, wt, b, y);	\
      TG_GRADCHECK_NULL (NAME, "y", &nb, &c, &h, &w, &f, x, wt, b, y);	\
      NAME (nb, c, h, w, f, x, wt, b, y);				\
      nsizes = 0;							\
      recording = 1;							\
      NAME##_grad (nb, c, h, w, f, x, wt, b, y, d_x, d_wt, d_b, d_y);	\
      recording = 0;							\
      check_sizes (nb, c, h, w, sizeof (T));				\
    }									\
  while (0)

static void
run (int nb, int c, int h, int w, int f, unsigned seed)
{
  int nx = nb * c * h * w, nw = f * c * 9, ny = nb * f * h * w;
  RUN (conv_f, float, tg_alloc_f, tg_fill_f, seed);
  RUN (conv_d, double, tg_alloc, tg_fill, seed + 4);
}

int
main (void)
{
  run (3, 4, 11, 13, 8, 1);
  run (2, 3, 4, 5, 3, 10);
  run (1, 1, 1, 1, 2, 20);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "\n  samples: 3 stages run one iteration of their loop over n at a time; 2 temporaries of one iteration each\n" 2 } } */
/* { dg-final { scan-tensorgrad-backward "\n  tensor d_x.col: \[a-z]+, temporary, size max \\(c, 0\\) \\* \\(max \\(w, 0\\) \\* \\(9 \\* max \\(h, 0\\)\\)\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: runs where the product of stage \[0-9\]+ does not\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: the product fills 'd_x.col', not zeroed\n" } } */
