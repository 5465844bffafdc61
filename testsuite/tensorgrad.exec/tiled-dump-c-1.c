/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=tiled-dump-c-1.gen.c -I." } */
/* { dg-additional-sources "tiled-dump-c-1-aux.c" } */
/* Without -fplugin-arg-tensorgrad-blas, -fplugin-arg-tensorgrad-dump-c
   prints the tiled products' function (lib/back/tiled.h) and its calls
   under the run-time test of the sizes: tiled-dump-c-1-aux.c compiles
   that file (the gradient renamed linear_grad_c), and this test checks
   that it computes exactly what the injected gradient does (the same
   sums in the same order, whatever vector width the GIMPLE took) for a
   dense layer with its weight stored output by output, float:
   y[i*m + j] = b[j] + sum_p x[i*k + p] w[j*k + p];
   d_x += d_y w (no transpose), d_w += d_y^T x, d_b[j] += sum_i d_y[i*m + j].
   Sizes 9 x 40 x 100 (tiled), 65 x 300 x 13 (tiled, d_x over two blocks
   of 64 rows, edge tiles) and 3 x 7 x 5 (the loops),
   with the shadow of x NULL once.  TG_GRADCHECK checks the injected one
   against central differences at the first and last sizes; at every size
   it is also near the sums of plain loops in double.  */

#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
linear (int n, int k, int m, const float *x, const float *w, const float *b,
	float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[j * k + p];
	y[i * m + j] = acc;
      }
}

void linear_grad_c (int n, int k, int m, const float *x, const float *w,
		    const float *b, float *y, float *d_x, float *d_w,
		    float *d_b, float *d_y);

/* d_x[i*k + p] += sum_j d_y[i*m + j] w[j*k + p], d_w[j*k + p] +=
   sum_i d_y[i*m + j] x[i*k + p], d_b[j] += sum_i d_y[i*m + j], in double
   from the shadows' values DX, DW and DB before the call.  */
static void
check_loops (int n, int k, int m, const float *x, const float *w,
	     const float *dy, const float *dx0, const float *dw0,
	     const float *db0, const float *dx, const float *dw,
	     const float *db)
{
  for (int i = 0; i < n; i++)
    for (int p = 0; p < k; p++)
      {
	double s = dx0[i * k + p];
	for (int j = 0; j < m; j++)
	  s += (double) dy[i * m + j] * w[j * k + p];
	CHECK_NEAR_AT (dx[i * k + p], s, 1e-4, 1e-4, i * k + p);
      }
  for (int j = 0; j < m; j++)
    {
      double sb = db0[j];
      for (int i = 0; i < n; i++)
	sb += dy[i * m + j];
      CHECK_NEAR_AT (db[j], sb, 1e-4, 1e-4, j);
      for (int p = 0; p < k; p++)
	{
	  double s = dw0[j * k + p];
	  for (int i = 0; i < n; i++)
	    s += (double) dy[i * m + j] * x[i * k + p];
	  CHECK_NEAR_AT (dw[j * k + p], s, 1e-4, 1e-4, j * k + p);
	}
    }
}

static void
run (int n, int k, int m, unsigned seed, int diff)
{
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (m * k);
  float *b = tg_alloc_f (m), *y = tg_alloc_f (n * m);
  float *dy = tg_alloc_f (n * m);
  float *dx[2] = { tg_alloc_f (n * k), tg_alloc_f (n * k) };
  float *dw[2] = { tg_alloc_f (m * k), tg_alloc_f (m * k) };
  float *db[2] = { tg_alloc_f (m), tg_alloc_f (m) };
  tg_fill_f (x, n * k, seed, -1, 1);
  tg_fill_f (w, m * k, seed + 1, -1, 1);
  tg_fill_f (b, m, seed + 2, -1, 1);
  tg_fill_f (dy, n * m, seed + 3, -1, 1);
  if (diff)
    TG_GRADCHECK (linear, &n, &k, &m, x, w, b, y);
  float *dx0 = tg_alloc_f (n * k), *dw0 = tg_alloc_f (m * k);
  float *db0 = tg_alloc_f (m);
  tg_fill_f (dx0, n * k, seed + 4, -1, 1);
  tg_fill_f (dw0, m * k, seed + 5, -1, 1);
  tg_fill_f (db0, m, seed + 6, -1, 1);
  for (int nul = 0; nul < 2; nul++)
    {
      for (int v = 0; v < 2; v++)
	{
	  tg_fill_f (dx[v], n * k, seed + 4, -1, 1);
	  tg_fill_f (dw[v], m * k, seed + 5, -1, 1);
	  tg_fill_f (db[v], m, seed + 6, -1, 1);
	}
      linear_grad (n, k, m, x, w, b, y, nul ? NULL : dx[0], dw[0], db[0], dy);
      linear_grad_c (n, k, m, x, w, b, y, nul ? NULL : dx[1], dw[1], db[1],
		     dy);
      CHECK (memcmp (dx[0], dx[1], sizeof (float) * n * k) == 0);
      CHECK (memcmp (dw[0], dw[1], sizeof (float) * m * k) == 0);
      CHECK (memcmp (db[0], db[1], sizeof (float) * m) == 0);
      if (!nul)
	check_loops (n, k, m, x, w, dy, dx0, dw0, db0, dx[0], dw[0], db[0]);
    }
}

int
main (void)
{
  run (9, 40, 100, 1, 1);
  run (65, 300, 13, 10, 0);
  run (3, 7, 5, 20, 1);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-file "tiled-dump-c-1.gen.c" "static void\ntg_tiled_f32 \\(long m, long n, long k, float alpha" } } */
/* { dg-final { scan-tensorgrad-file "tiled-dump-c-1.gen.c" "tg_tiled_f32 \\(n, k, m, 1, d_y, m, 1, w, k, 1, d_x, k, 0\\);" } } */
