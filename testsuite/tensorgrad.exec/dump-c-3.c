/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-3.gen.c -I." } */
/* { dg-additional-sources "dump-c-3-aux.c" } */
/* Loops in lanes (lib/passes/lanes.c) in both back ends: the C file's
   gradient (dump-c-3-aux.c) and the injected one add their partial sums
   in one order, so they agree to the last bit, with sizes that leave a
   rest and ones that have no whole block, and with NULL shadows, which
   put tests inside the loop in lanes.  dense sums d_x in lanes of j
   (float), normalize and dot compute the forward's sum again in lanes
   (a reduction).  TG_GRADCHECK checks the injected gradients against
   central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float a = 0;
        for (int p = 0; p < k; p++)
          a += x[i * k + p] * w[p * m + j];
        y[i * m + j] = a;
      }
}

__attribute__ ((differentiable))
void
normalize (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * x[i * m + j];
      for (int j = 0; j < m; j++)
        y[i * m + j] = x[i * m + j] / s;
    }
}

__attribute__ ((differentiable))
double
dot (int n, const float *x, const float *w)
{
  float s = 0;
  for (int j = 0; j < n; j++)
    s += x[j] * w[j];
  return s * s;
}

void dense_grad_c (int n, int k, int m, const float *x, const float *w,
                   float *y, float *d_x, float *d_w, float *d_y);
void normalize_grad_c (int n, int m, const double *x, double *y,
                       double *d_x, double *d_y);
void dot_grad_c (int n, const float *x, const float *w, float *d_x,
                 float *d_w, double d_return);

static void
same_f (const float *a, const float *b, int n)
{
  for (int i = 0; i < n; i++)
    CHECK (a[i] == b[i]);
}

static void
check_dense (int n, int k, int m)
{
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m);
  float *y = tg_alloc_f (n * m), *dy = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -1, 1);
  tg_fill_f (dy, n * m, 3, -1, 1);
  TG_GRADCHECK (dense, &n, &k, &m, x, w, y);
  dense (n, k, m, x, w, y);
  float *dx1 = tg_alloc_f (n * k), *dx2 = tg_alloc_f (n * k);
  float *dw1 = tg_alloc_f (k * m), *dw2 = tg_alloc_f (k * m);
  dense_grad (n, k, m, x, w, y, dx1, dw1, dy);
  dense_grad_c (n, k, m, x, w, y, dx2, dw2, dy);
  same_f (dx1, dx2, n * k);
  same_f (dw1, dw2, k * m);
  float *dx3 = tg_alloc_f (n * k), *dw3 = tg_alloc_f (k * m);
  dense_grad_c (n, k, m, x, w, y, dx3, NULL, dy);
  dense_grad_c (n, k, m, x, w, y, NULL, dw3, dy);
  same_f (dx1, dx3, n * k);
  same_f (dw1, dw3, k * m);
}

int
main (void)
{
  check_dense (3, 19, 21);
  check_dense (2, 5, 3);
  check_dense (2, 16, 8);

  for (int m = 3; m <= 25; m += 11)
    {
      int n = 2;
      double *x = tg_alloc (n * m), *y = tg_alloc (n * m), *dy = tg_alloc (n * m);
      tg_fill (x, n * m, 4, 0.5, 1.5);
      tg_fill (dy, n * m, 5, -1, 1);
      TG_GRADCHECK (normalize, &n, &m, x, y);
      normalize (n, m, x, y);
      double *d1 = tg_alloc (n * m), *d2 = tg_alloc (n * m);
      normalize_grad (n, m, x, y, d1, dy);
      normalize_grad_c (n, m, x, y, d2, dy);
      for (int i = 0; i < n * m; i++)
        CHECK (d1[i] == d2[i]);

      float *xf = tg_alloc_f (m), *wf = tg_alloc_f (m);
      tg_fill_f (xf, m, 6, -1, 1);
      tg_fill_f (wf, m, 7, -1, 1);
      TG_GRADCHECK (dot, &m, xf, wf);
      float *a1 = tg_alloc_f (m), *a2 = tg_alloc_f (m);
      float *b1 = tg_alloc_f (m), *b2 = tg_alloc_f (m);
      dot_grad (m, xf, wf, a1, b1, 0.5);
      dot_grad_c (m, xf, wf, a2, b2, 0.5);
      same_f (a1, a2, m);
      same_f (b1, b2, m);
      float *a3 = tg_alloc_f (m);
      dot_grad_c (m, xf, wf, a3, NULL, 0.5);
      same_f (a1, a3, m);
    }
  return tg_exit ();
}
