/* { dg-do run } */
/* A dot product unrolled by 2 into two partial sums, with the odd last
   element after the loop at the counter it left:
     for (i = 0; i + 1 < n; i += 2) { s0 += x[i] y[i]; s1 += x[i+1] y[i+1]; }
     if (i < n) s0 += x[i] y[i];      *out = s0 + s1:
   d_x[i] += d_out y[i], d_y[i] += d_out x[i] for every i < n (the last
   through the tail when n is odd).  double and float; n = 16, 13, 5, 3, 2
   and 1 (no iteration of the loop, only the tail).  Also a sum of squares
   unrolled by 4 with the rest in a loop from where the first stopped:
   d_x[i] += 2 x[i] d_ret.  The dot products are checked by hand (the
   tail's access, behind i < n, reaches one element past what the loop
   reads, so the descriptor cannot tell x's extent): against the formula
   and central differences, the float one with a NULL d_y.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
dot2 (int n, const double *x, const double *y, double *out)
{
  double s0 = 0, s1 = 0;
  int i;
  for (i = 0; i + 1 < n; i += 2)
    {
      s0 += x[i] * y[i];
      s1 += x[i + 1] * y[i + 1];
    }
  if (i < n)
    s0 += x[i] * y[i];
  *out = s0 + s1;
}

__attribute__ ((differentiable))
void
dot2f (int n, const float *x, const float *y, float *out)
{
  float s0 = 0, s1 = 0;
  int i;
  for (i = 0; i + 1 < n; i += 2)
    {
      s0 += x[i] * y[i];
      s1 += x[i + 1] * y[i + 1];
    }
  if (i < n)
    s0 += x[i] * y[i];
  *out = s0 + s1;
}

__attribute__ ((differentiable))
double
sumsq4 (int n, const double *x)
{
  double s = 0;
  int i = 0;
  for (; i + 3 < n; i += 4)
    s += x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2]
         + x[i + 3] * x[i + 3];
  double t = 0;
  for (; i < n; i++)
    t += x[i] * x[i];
  return s + t;
}

struct dctx
{
  int n;
  double *x, *y, out;
  float *xf, *yf, outf;
};

static double
dloss (void *p)
{
  struct dctx *k = p;
  dot2 (k->n, k->x, k->y, &k->out);
  return 0.5 * k->out;
}

static double
floss (void *p)
{
  struct dctx *k = p;
  dot2f (k->n, k->xf, k->yf, &k->outf);
  return 0.5 * k->outf;
}

int
main (void)
{
  static const int sizes[] = { 16, 13, 5, 3, 2, 1 };
  for (int t = 0; t < 6; t++)
    {
      int n = sizes[t];
      double *x = tg_alloc (n), *y = tg_alloc (n), out;
      double *d_x = tg_alloc (n), *d_y = tg_alloc (n), d_out = 0.5;
      tg_fill (x, n, 1 + t, -2, 2);
      tg_fill (y, n, 7 + t, -2, 2);
      tg_fill (d_x, n, 3 + t, -1, 1);
      dot2 (n, x, y, &out);
      double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), out0 = out;
      double *px = tg_dup (d_x, n);
      dot2_grad (n, x, y, &out, d_x, d_y, &d_out);
      CHECK_SAME (x, x0, n * sizeof *x);
      CHECK_SAME (y, y0, n * sizeof *y);
      CHECK (out == out0 && d_out == 0.5);
      double *gx = tg_alloc (n);
      tg_sub (gx, d_x, px, n);
      for (int i = 0; i < n; i++)
        {
          CHECK_NEAR_AT (gx[i], 0.5 * y[i], 1e-14, 1e-15, i);
          CHECK_NEAR_AT (d_y[i], 0.5 * x[i], 1e-14, 1e-15, i);
        }
      struct dctx k = { n, x, y, 0, NULL, NULL, 0 };
      tg_fd_check ("x", x, n, dloss, &k, gx, TG_RTOL, TG_ATOL);
      tg_fd_check ("y", y, n, dloss, &k, d_y, TG_RTOL, TG_ATOL);
      TG_GRADCHECK (sumsq4, &n, x);

      float *xf = tg_alloc_f (n), *yf = tg_alloc_f (n), outf;
      float *d_xf = tg_alloc_f (n), *d_yf = tg_alloc_f (n), d_outf = 0.5f;
      tg_fill_f (xf, n, 13 + t, -2, 2);
      tg_fill_f (yf, n, 19 + t, -2, 2);
      dot2f (n, xf, yf, &outf);
      dot2f_grad (n, xf, yf, &outf, d_xf, NULL, &d_outf);
      for (int i = 0; i < n; i++)
        CHECK_NEAR_AT (d_xf[i], 0.5f * yf[i], 1e-6, 1e-7, i);
      k.xf = xf, k.yf = yf;
      tg_fd_check_f ("x", xf, n, floss, &k, d_xf, TG_RTOL_F, TG_ATOL_F);
      free (x), free (y), free (d_x), free (d_y), free (x0), free (y0),
        free (px), free (gx), free (xf), free (yf), free (d_xf), free (d_yf);
    }
  return tg_exit ();
}
