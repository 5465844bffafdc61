/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): a kernel of another file called without its
   gradient's prototype.  The rewrite of tensorgrad.err/rewrite-other-file.c:
   dense_grad declared with the ABI's type, as the header that
   -fplugin-arg-tensorgrad-header=FILE writes where dense is compiled
   has it (rewrite-call-aux.c defines dense, and the plugin its
   gradient there); layer's gradient calls it.  Checked: y equals the
   original's (compiled here as plain C), and every component of the
   gradient against central differences (a call of another file: no
   descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define layer layer_orig
#define layer2 layer2_orig
#define dense2 dense
#include "tensorgrad.err/rewrite-other-file.c"
#undef layer
#undef layer2
#undef dense2
#undef differentiable

void dense_grad (int n, int k, int m, const double *x, const double *w,
                 double *y, double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
layer (int n, int k, int m, const double *x, const double *w, double *y)
{
  double t[n * m];
  dense (n, k, m, x, w, t);
  for (int i = 0; i < n * m; i++)
    y[i] = tanh (t[i]);
}

enum { N = 2, K = 3, M = 4 };
static double x[N * K], w[K * M], y[N * M], c[N * M];

static double
loss (void *unused)
{
  (void) unused;
  layer (N, K, M, x, w, y);
  return tg_dot (c, y, N * M);
}

int
main (void)
{
  tg_fill (x, N * K, 1, -1, 1);
  tg_fill (w, K * M, 2, -1, 1);
  tg_fill (c, N * M, 3, -1, 1);
  double y0[N * M];
  layer_orig (N, K, M, x, w, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  layer2_orig (N, K, M, x, w, y0);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[N * K] = { 0 }, d_w[K * M] = { 0 }, d_y[N * M];
  memcpy (d_y, c, sizeof c);
  layer_grad (N, K, M, x, w, y, d_x, d_w, d_y);
  tg_fd_check ("x", x, N * K, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, K * M, loss, NULL, d_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}
