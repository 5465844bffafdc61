/* { dg-do run } */
/* How to rewrite (README): a kernel whose signature has no gradient ABI.
   The rewrites of tensorgrad.err/rewrite-signature.c: dense takes the
   struct's members as parameters and a plain wrapper, dense_fwd,
   unpacks the struct (a wrapper for the gradient likewise); apply
   switches on an integer code for the activation; positive_part returns
   void and count_positive, a plain function, the count; sum_of takes
   its values in an array; the prototype of scale_grad is the expected one.
   Checked: the results equal the originals' (compiled here as plain C),
   and the gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define dense_fwd dense_fwd_orig
#define apply apply_orig
#define positive_part positive_part_orig
#define sum_of sum_of_orig
#define scale scale_orig
#define scale_grad scale_grad_orig
#include "tensorgrad.err/rewrite-signature.c"
#undef dense_fwd
#undef apply
#undef positive_part
#undef sum_of
#undef scale
#undef scale_grad
#undef differentiable

__attribute__ ((differentiable))
void
dense (int n, int in, int out, const double *w, const double *b,
       const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int o = 0; o < out; o++)
      {
        double s = b[o];
        for (int k = 0; k < in; k++)
          s += x[i * in + k] * w[k * out + o];
        y[i * out + o] = s;
      }
}

static void
dense_fwd (int n, const struct dense *L, const double *x, double *y)
{
  dense (n, L->in, L->out, L->w, L->b, x, y);
}

enum { ACT_TANH, ACT_SQUARE };

__attribute__ ((differentiable))
void
apply (int n, int act, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    switch (act)
      {
      case ACT_TANH:
        y[i] = tanh (x[i]);
        break;
      default:
        y[i] = x[i] * x[i];
        break;
      }
}

static double
square (double a)
{
  return a * a;
}

__attribute__ ((differentiable))
void
positive_part (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0;
}

static int
count_positive (int n, const double *x)
{
  int c = 0;
  for (int i = 0; i < n; i++)
    c += x[i] > 0;
  return c;
}

__attribute__ ((differentiable))
double
sum_of (int n, const double *v)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

void scale_grad (int n, double a, const double *x, double *y, double *d_a,
                 double *d_x, double *d_y);

__attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

int
main (void)
{
  int n = 2, in = 3, out = 2, m = 6;
  double *w = tg_alloc (in * out), *b = tg_alloc (out);
  double *x = tg_alloc (m), *y = tg_alloc (m), *y0 = tg_alloc (m);
  tg_fill (w, in * out, 1, -1, 1);
  tg_fill (b, out, 2, -1, 1);
  tg_fill_away (x, m, 3, -1, 1, 0, 0.05);
  struct dense L = { in, out, w, b };
  dense_fwd_orig (n, &L, x, y0);
  dense_fwd (n, &L, x, y);
  CHECK_SAME (y, y0, n * out * sizeof *y);
  TG_GRADCHECK (dense, &n, &in, &out, w, b, x, y);

  apply_orig (m, tanh, x, y0);
  int act = ACT_TANH;
  apply (m, act, x, y);
  CHECK_SAME (y, y0, m * sizeof *y);
  TG_GRADCHECK (apply, &m, &act, x, y);
  apply_orig (m, square, x, y0);
  act = ACT_SQUARE;
  apply (m, act, x, y);
  CHECK_SAME (y, y0, m * sizeof *y);
  TG_GRADCHECK (apply, &m, &act, x, y);

  int c0 = positive_part_orig (m, x, y0);
  positive_part (m, x, y);
  CHECK_SAME (y, y0, m * sizeof *y);
  CHECK (count_positive (m, x) == c0);
  TG_GRADCHECK (positive_part, &m, x, y);

  CHECK (sum_of (3, x) == sum_of_orig (3, x[0], x[1], x[2]));
  TG_GRADCHECK (sum_of, &m, x);

  double a = 0.25;

  scale_orig (m, a, x, y0);
  scale (m, a, x, y);
  CHECK_SAME (y, y0, m * sizeof *y);
  TG_GRADCHECK (scale, &m, &a, x, y);
  return tg_exit ();
}
