/* { dg-do run } */
/* Without -fplugin-arg-tensorgrad-blas, a dense layer's matrix products
   run as the tiled function (lib/back/tiled.h), not the loops:
   y[i*ldy + j] = b[j] + sum_p x[i*ldx + p] w[p*m + j], float.
   d_x[i*ldx + p] += sum_j d_y[i*ldy + j] w[p*m + j]: d_x += d_y w^T;
   d_w[p*m + j] += sum_i x[i*ldx + p] d_y[i*ldy + j]: d_w += x^T d_y;
   d_b[j] += sum_i d_y[i*ldy + j].
   x and y rows in larger buffers (ldx > k, ldy > m) from one element in.
   Sizes: n = 0; 1 x 1 x 1 and 3 x 7 x 5 (loops: below the tiled sizes);
   9 x 40 x 100 (both products tiled, edge tiles in every direction);
   6 x 20 x 300 (d_x tiled over two blocks of 256 terms, d_w loops: 6
   terms); 70 x 9 x 60 (d_x over two blocks of 64 rows); 4 x 8 x 1024
   (the smallest tile, d_x tiled).  Every component against central
   differences, also with the shadows of x, and of w and b, NULL at the
   sizes up to 9 x 40 x 100.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int k, int m, int ldx, int ldy, const float *x,
       const float *w, const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * ldx + p] * w[p * m + j];
	y[i * ldy + j] = acc;
      }
}

static void
run (int n, int k, int m, unsigned seed)
{
  int ldx = k + 3, ldy = m + 2;
  float *xbuf = tg_alloc_f (n * ldx + 1), *w = tg_alloc_f (k * m);
  float *b = tg_alloc_f (m), *ybuf = tg_alloc_f (n * ldy + 2);
  tg_fill_f (xbuf, n * ldx + 1, seed, -1, 1);
  tg_fill_f (w, k * m, seed + 1, -1, 1);
  tg_fill_f (b, m, seed + 2, -1, 1);
  float *x = xbuf + 1, *y = ybuf + 1;
  TG_GRADCHECK (dense, &n, &k, &m, &ldx, &ldy, x, w, b, y);
  /* NULL shadows at the smaller sizes: their guards are the same at
     every size.  */
  if ((long) n * k * m > 40000)
    return;
  TG_GRADCHECK_NULL (dense, "x", &n, &k, &m, &ldx, &ldy, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "w b", &n, &k, &m, &ldx, &ldy, x, w, b, y);
}

int
main (void)
{
  run (0, 5, 5, 1);
  run (1, 1, 1, 5);
  run (3, 7, 5, 10);
  run (9, 40, 100, 20);
  run (6, 20, 300, 30);
  run (70, 9, 60, 40);
  run (4, 8, 1024, 50);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x = \[a-z0-9_\]+ \\* w\\^T as tiled \\(n, k, m\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_w = x\\^T \\* \[a-z0-9_\]+ as tiled \\(k, m, n\\)\n" } } */
