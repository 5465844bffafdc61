/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-header=call-other-file-1.gen.h -I." } */
/* { dg-additional-sources "call-other-file-1-aux.c" } */
/* Composition across translation units: this file defines the kernel
   dense, and -fplugin-arg-tensorgrad-header writes the prototype of
   dense_grad; call-other-file-1-aux.c includes that header and defines
   mlp, a differentiable kernel calling dense twice (on local arrays, one
   of them a VLA) around a tanh nest.  mlp's gradient calls dense_grad,
   compiled here.  Every component of mlp's gradient (x, both weights and
   biases) is checked against central differences, with pre-filled
   shadows, and the inputs are checked untouched.  Checked by hand: mlp
   calls dense of another file, so it gets no descriptor.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int m, const double *x, const double *w, const double *b,
       double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = b[j];
      for (int i = 0; i < n; i++)
        s += x[i] * w[i * m + j];
      y[j] = s;
    }
}

double mlp (int n, int h, const double *x, const double *w1,
            const double *b1, const double *w2, const double *b2);
void mlp_grad (int n, int h, const double *x, const double *w1,
               const double *b1, const double *w2, const double *b2,
               double *d_x, double *d_w1, double *d_b1, double *d_w2,
               double *d_b2, double d_return);

struct ctx
{
  int n, h;
  double *x, *w1, *b1, *w2, *b2;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return mlp (k->n, k->h, k->x, k->w1, k->b1, k->w2, k->b2);
}

static void
check (const char *name, double *p, int n, struct ctx *k, double *d,
       const double *pre)
{
  double *g = tg_alloc (n);
  for (int i = 0; i < n; i++)
    g[i] = (d[i] - pre[i]) / 0.5;
  tg_fd_check (name, p, n, loss, k, g, TG_RTOL, TG_ATOL);
}

int
main (void)
{
  enum { N = 4, H = 5 };
  double *x = tg_alloc (N), *w1 = tg_alloc (N * H), *b1 = tg_alloc (H);
  double *w2 = tg_alloc (H * 2), *b2 = tg_alloc (2);
  double *d_x = tg_alloc (N), *d_w1 = tg_alloc (N * H), *d_b1 = tg_alloc (H);
  double *d_w2 = tg_alloc (H * 2), *d_b2 = tg_alloc (2);
  tg_fill (x, N, 1, -1, 1);
  tg_fill (w1, N * H, 2, -0.8, 0.8);
  tg_fill (b1, H, 3, -0.3, 0.3);
  tg_fill (w2, H * 2, 4, -0.8, 0.8);
  tg_fill (b2, 2, 5, -0.3, 0.3);
  tg_fill (d_x, N, 6, -1, 1);
  tg_fill (d_w1, N * H, 7, -1, 1);
  tg_fill (d_b1, H, 8, -1, 1);
  tg_fill (d_w2, H * 2, 9, -1, 1);
  tg_fill (d_b2, 2, 10, -1, 1);
  double *px = tg_dup (d_x, N), *pw1 = tg_dup (d_w1, N * H);
  double *pb1 = tg_dup (d_b1, H), *pw2 = tg_dup (d_w2, H * 2);
  double *pb2 = tg_dup (d_b2, 2);
  double *x0 = tg_dup (x, N), *w10 = tg_dup (w1, N * H);
  double *b10 = tg_dup (b1, H), *w20 = tg_dup (w2, H * 2);
  double *b20 = tg_dup (b2, 2);
  mlp_grad (N, H, x, w1, b1, w2, b2, d_x, d_w1, d_b1, d_w2, d_b2, 0.5);
  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (w1, w10, N * H * sizeof *w1);
  CHECK_SAME (b1, b10, H * sizeof *b1);
  CHECK_SAME (w2, w20, H * 2 * sizeof *w2);
  CHECK_SAME (b2, b20, 2 * sizeof *b2);
  struct ctx k = { N, H, x, w1, b1, w2, b2 };
  check ("x", x, N, &k, d_x, px);
  check ("w1", w1, N * H, &k, d_w1, pw1);
  check ("b1", b1, H, &k, d_b1, pb1);
  check ("w2", w2, H * 2, &k, d_w2, pw2);
  check ("b2", b2, 2, &k, d_b2, pb2);
  return tg_exit ();
}
