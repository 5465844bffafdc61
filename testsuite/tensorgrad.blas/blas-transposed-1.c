/* { dg-do run } */
/* A dense layer whose weight is stored output by output (w[j*k + p], as
   PyTorch's nn.Linear keeps it), with -fplugin-arg-tensorgrad-blas:
   y[i*m + j] = b[j] + sum_p x[i*k + p] w[j*k + p].
   d_x[i*k + p] += sum_j d_y[i*m + j] w[j*k + p]: d_x += d_y w, no
   transpose; d_w[j*k + p] += sum_i d_y[i*m + j] x[i*k + p]: d_w += d_y^T x.
   In float, x and y rows in larger buffers (a leading dimension ldx > k,
   ldy > m: the calls' lda and ldc) with pointer offsets into them; sizes
   1 (one output), 7, 33.  Every component against central differences,
   also with the shadows of x, w and b NULL.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
linear (int n, int k, int m, int ldx, int ldy, const float *x,
	const float *w, const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * ldx + p] * w[j * k + p];
	y[i * ldy + j] = acc;
      }
}

static void
run (int n, int k, int m, unsigned seed)
{
  int ldx = k + 3, ldy = m + 2;
  float *xbuf = tg_alloc_f (n * ldx + 1), *w = tg_alloc_f (m * k);
  float *b = tg_alloc_f (m), *ybuf = tg_alloc_f (n * ldy + 2);
  tg_fill_f (xbuf, n * ldx + 1, seed, -1, 1);
  tg_fill_f (w, m * k, seed + 1, -1, 1);
  tg_fill_f (b, m, seed + 2, -1, 1);
  /* Rows start one element into the buffer.  */
  float *x = xbuf + 1, *y = ybuf + 1;
  TG_GRADCHECK (linear, &n, &k, &m, &ldx, &ldy, x, w, b, y);
  TG_GRADCHECK_NULL (linear, "x", &n, &k, &m, &ldx, &ldy, x, w, b, y);
  TG_GRADCHECK_NULL (linear, "w b", &n, &k, &m, &ldx, &ldy, x, w, b, y);
}

int
main (void)
{
  run (7, 33, 1, 1);
  run (1, 7, 33, 10);
  run (33, 1, 7, 20);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = \[a-z0-9_\]+ \\* w as cblas_sgemm \\(n, k, m\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w = \[a-z0-9_\]+\\^T \\* x as cblas_sgemm \\(m, k, n\\)\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
