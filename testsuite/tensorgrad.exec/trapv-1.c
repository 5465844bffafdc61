/* { dg-do run } */
/* { dg-options "-ftrapv" } */
/* Kernels under -ftrapv, whose checks of signed overflow GCC makes when
   it expands to RTL (calls of __addvsi3, __mulvsi3, ...), in the forward
   and in the gradient alike: the GIMPLE the plugin lifts is the plain
   arithmetic, and SCEV, which takes trapping arithmetic for wrapping,
   is asked only about the loops' counters.

   dense: y[i*m + j] = tanh (b[j] + sum_p x[i*k + p] w[p*m + j]):
     with g = d_y[i*m + j] (1 - y^2): d_b[j] += sum_i g,
     d_x[i*k + p] += sum_j g w[p*m + j], d_w[p*m + j] += sum_i g x[i*k + p].
   corner: y[0] = x[n*n - 1]^2:  d_x[n*n - 1] += 2 d_y[0] x[n*n - 1].
   Each is checked through its descriptor; then corner with n = 65536,
   whose n*n overflows int, must trap (libgcc's __mulvsi3 aborts) before
   it loads anything, or, under -fsanitize=signed-integer-overflow
   (ubsan.exp runs this directory so), stop on UBSan's report, whose
   check replaces -ftrapv's.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int m, int k, const double *x, const double *w,
       const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = tanh (acc);
      }
}

__attribute__ ((differentiable))
void
corner (int n, const double *x, double *y)
{
  y[0] = x[n * n - 1] * x[n * n - 1];
}

TG_DECLARE_GRADCHECK (dense);
TG_DECLARE_GRADCHECK (corner);

/* Through a volatile, so that corner is not inlined here, where its
   result would be dead and its checked multiplication with it.  */
static void (*volatile corner_fn) (int, const double *, double *) = corner;

static void
overflow (void)
{
  double x[1] = { 0 }, y[1];
  corner_fn (65536, x, y);
}

int
main (void)
{
  int n = 3, m = 4, k = 5;
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  TG_GRADCHECK (dense, &n, &m, &k, x, w, b, y);

  int c = 3;
  double *xc = tg_alloc (c * c), *yc = tg_alloc (1);
  tg_fill (xc, c * c, 4, -2, 2);
  TG_GRADCHECK (corner, &c, xc, yc);

  char buf[256];
  CHECK (tg_child_aborts (overflow, buf, sizeof buf)
	 || tg_child_reports (overflow, "signed integer overflow", 0));
  free (x), free (w), free (b), free (y), free (xc), free (yc);
  return tg_exit ();
}
