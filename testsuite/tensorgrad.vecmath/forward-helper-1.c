/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward" } */
/* -fplugin-arg-tensorgrad-vector-math (vecmath.exp adds it) with
   tiled-forward: the kernel's product runs as a helper function, and
   the loop after the product that applies the activation, tanhf, is
   the plugin's: libmvec's tanhf there.  The gradient reads the output
   (1 - y^2) and calls no tanh, so a vector tanhf in the object is the
   helper's.  A dense layer with a bias, float, rows of 37 (a rest
   after vectors), the product large enough to run tiled (64 x 37 x
   48); its gradient checked against central differences, the forward
   against the same loops compiled without the plugin's rewrite within
   libmvec's 4 ulp carried through the product.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_tanh (int n, int k, int m, const float *x, const float *w,
            const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = tanhf (acc);
      }
}

int
main (void)
{
  int n = 64, k = 48, m = 37;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m);
  float *b = tg_alloc_f (m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -0.2, 0.2);
  tg_fill_f (b, m, 3, -0.5, 0.5);
  dense_tanh (n, k, m, x, w, b, y);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = b[j];
        for (int p = 0; p < k; p++)
          acc += (double) x[i * k + p] * w[p * m + j];
        CHECK (fabs (y[i * m + j] - tanh (acc)) < 1e-5);
      }
  int n3 = 3;
  TG_GRADCHECK (dense_tanh, &n3, &k, &m, x, w, b, y);
  TG_GRADCHECK (dense_tanh, &n, &k, &m, x, w, b, y);
  return tg_exit ();
}

/* { dg-final { tg-vector-calls "tanhf" } } */
