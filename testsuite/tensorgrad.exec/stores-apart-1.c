/* { dg-do run } */
/* One loop body storing to several places of one array, each element
   once: a loop unrolled by hand (two stores per iteration and a
   remainder loop; four stores of a product with a shared weight w[0],
   float), complex numbers interleaved (re at 2 i, im at 2 i + 1, read
   back in the same iteration), the two halves of an output (y[i] and
   y[n + i], then a sum over all 2 n), and two rows per iteration of an
   outer loop.  Each statement's elements are apart from the others', so
   the array is still written once.  Gradients, with g_k the incoming
   adjoint of y[k]:
     u2:  d_x[i] += g_i (1 - tanh^2 x[i]);
     u4:  d_x[i] += w g_i,  d_w += sum_i x[i] g_i;
     cplx: with c = cos w[i], s = sin w[i], z[i] = x^2 c s + x c:
       d_x[i] += g_2i c + g_2i+1 s + d_z[i] (2 x c s + c),
       d_w[i] += -g_2i x s + g_2i+1 x c + d_z[i] (x^2 (c^2 - s^2) - x s);
     halves: L = sum_i tanh^2 x + x^2 tanh^2 x.
   The weight's adjoint in u4 is a chain of four additions per iteration
   whose loads the reverse sweep orders backwards: GCC 12.2's vectorizer
   turns such a chain into wrong code at -O2; gather.c adds the four
   terms as one (stores-apart-2.c scans the dump for it).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
u2 (int n, const double *x, double *y)
{
  int i = 0;
  for (; i + 1 < n; i += 2)
    {
      y[i] = tanh (x[i]);
      y[i + 1] = tanh (x[i + 1]);
    }
  for (; i < n; i++)
    y[i] = tanh (x[i]);
}

__attribute__ ((differentiable))
void
u4 (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i += 4)
    {
      y[i] = w[0] * x[i];
      y[i + 1] = w[0] * x[i + 1];
      y[i + 2] = w[0] * x[i + 2];
      y[i + 3] = w[0] * x[i + 3];
    }
}

__attribute__ ((differentiable))
void
cplx (int n, const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[2 * i] = x[i] * cos (w[i]);
      y[2 * i + 1] = x[i] * sin (w[i]);
      z[i] = y[2 * i] * y[2 * i + 1] + y[2 * i];
    }
}

__attribute__ ((differentiable))
double
halves (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = tanh (x[i]);
      y[n + i] = x[i] * y[i];
    }
  double s = 0;
  for (int i = 0; i < 2 * n; i++)
    s += y[i] * y[i];
  return s;
}

__attribute__ ((differentiable))
void
two_rows (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float *lo = y + 2 * i * m, *hi = lo + m;
        lo[j] = x[i * m + j] * x[i * m + j];
        hi[j] = expf (x[i * m + j]);
      }
}

int
main (void)
{
  int n = 7, n8 = 8, m = 3;
  double *x = tg_alloc (n), *y = tg_alloc (2 * n), *w = tg_alloc (n);
  double *z = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (w, n, 2, -1, 1);
  TG_GRADCHECK (u2, &n, x, y);
  TG_GRADCHECK (cplx, &n, x, w, y, z);
  TG_GRADCHECK_NULL (cplx, "w", &n, x, w, y, z);
  TG_GRADCHECK (halves, &n, x, y);

  float *xf = tg_alloc_f (n8 * m), *wf = tg_alloc_f (1);
  float *yf = tg_alloc_f (2 * n8 * m);
  tg_fill_f (xf, n8 * m, 3, -1, 1);
  tg_fill_f (wf, 1, 4, -1, 1);
  TG_GRADCHECK (u4, &n8, xf, wf, yf);
  TG_GRADCHECK_NULL (u4, "x", &n8, xf, wf, yf);
  TG_GRADCHECK (two_rows, &n, &m, xf, yf);
  return tg_exit ();
}
