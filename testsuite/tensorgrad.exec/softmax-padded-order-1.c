/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Softmax over rows of length Vp of which the first V entries are real:
   the maximum, the exponentials (with their sum) and the normalization
   in place run to V, and a loop of its own zeroes V..Vp-1, placed first,
   between the exponentials and the normalization, or last.  The zeroing
   writes a part of each row apart from the rest, so it is a piece of
   the row of its own in every order; the normalization rewrites what the
   exponentials wrote.  With y = softmax over the V real entries:
   d_x[i] += y[i] (d_y[i] - sum_k d_y[k] y[k]) for i < V, nothing for the
   padding.  Float over the rows of several heads ((b * NH + h) * Vp),
   double over a batch; each order in both; NULL shadows.  */

#include <math.h>
#include "tg-test.h"

#define PAD_FIRST 0
#define PAD_BETWEEN 1
#define PAD_LAST 2

#define SOFTMAX_F(NAME, WHERE)                                                \
  __attribute__ ((differentiable)) void NAME (int B, int NH, int V, int Vp,   \
                                              const float *x, float *y)       \
  {                                                                           \
    for (int b = 0; b < B; b++)                                               \
      for (int h = 0; h < NH; h++)                                            \
        {                                                                     \
          const float *xr = x + (b * NH + h) * Vp;                            \
          float *p = y + (b * NH + h) * Vp;                                   \
          if (WHERE == PAD_FIRST)                                             \
            for (int i = V; i < Vp; i++)                                      \
              p[i] = 0.0f;                                                    \
          float mx = -1e30f;                                                  \
          for (int i = 0; i < V; i++)                                         \
            mx = fmaxf (mx, xr[i]);                                           \
          float z = 0;                                                        \
          for (int i = 0; i < V; i++)                                         \
            {                                                                 \
              p[i] = expf (xr[i] - mx);                                       \
              z += p[i];                                                      \
            }                                                                 \
          if (WHERE == PAD_BETWEEN)                                           \
            for (int i = V; i < Vp; i++)                                      \
              p[i] = 0.0f;                                                    \
          for (int i = 0; i < V; i++)                                         \
            p[i] /= z;                                                        \
          if (WHERE == PAD_LAST)                                              \
            for (int i = V; i < Vp; i++)                                      \
              p[i] = 0.0f;                                                    \
        }                                                                     \
  }

#define SOFTMAX_D(NAME, WHERE)                                                \
  __attribute__ ((differentiable)) void NAME (int B, int V, int Vp,           \
                                              const double *x, double *p)     \
  {                                                                           \
    for (int b = 0; b < B; b++)                                               \
      {                                                                       \
        if (WHERE == PAD_FIRST)                                               \
          for (int i = 0; i < Vp - V; i++)                                    \
            p[b * Vp + V + i] = 0;                                            \
        double mx = -1e300;                                                   \
        for (int i = 0; i < V; i++)                                           \
          if (x[b * Vp + i] > mx)                                             \
            mx = x[b * Vp + i];                                               \
        double z = 0;                                                         \
        for (int i = 0; i < V; i++)                                           \
          {                                                                   \
            p[b * Vp + i] = exp (x[b * Vp + i] - mx);                         \
            z += p[b * Vp + i];                                               \
          }                                                                   \
        if (WHERE == PAD_BETWEEN)                                             \
          for (int i = 0; i < Vp - V; i++)                                    \
            p[b * Vp + V + i] = 0;                                            \
        double iz = 1 / z;                                                    \
        for (int i = 0; i < V; i++)                                           \
          p[b * Vp + i] *= iz;                                                \
        if (WHERE == PAD_LAST)                                                \
          for (int i = 0; i < Vp - V; i++)                                    \
            p[b * Vp + V + i] = 0;                                            \
      }                                                                       \
  }

SOFTMAX_F (pad_first_f, PAD_FIRST)
SOFTMAX_F (pad_between_f, PAD_BETWEEN)
SOFTMAX_F (pad_last_f, PAD_LAST)
SOFTMAX_D (pad_first_d, PAD_FIRST)
SOFTMAX_D (pad_between_d, PAD_BETWEEN)
SOFTMAX_D (pad_last_d, PAD_LAST)

/* Row R of X's softmax over its V real entries against Y.  */
static void
check_rows (int rows, int V, int Vp, const double *x, const double *y,
            double tol)
{
  for (int r = 0; r < rows; r++)
    {
      double z = 0;
      for (int i = 0; i < V; i++)
        z += exp (x[r * Vp + i]);
      for (int i = 0; i < Vp; i++)
        CHECK_NEAR (y[r * Vp + i], i < V ? exp (x[r * Vp + i]) / z : 0.0,
                    tol, 1e-300);
    }
}

int
main (void)
{
  int B = 2, NH = 3, V = 5, Vp = 8;
  int n = B * NH * Vp;
  float *xf = tg_alloc_f (n), *yf = tg_alloc_f (n);
  double *xw = tg_alloc (n), *yw = tg_alloc (n);
  tg_fill_f (xf, n, 1, -2, 2);
  void (*kf[3]) (int, int, int, int, const float *, float *)
      = { pad_first_f, pad_between_f, pad_last_f };
  for (int k = 0; k < 3; k++)
    {
      for (int i = 0; i < n; i++)
        yf[i] = 7.0f;
      kf[k](B, NH, V, Vp, xf, yf);
      for (int i = 0; i < n; i++)
        {
          xw[i] = xf[i];
          yw[i] = yf[i];
        }
      check_rows (B * NH, V, Vp, xw, yw, 1e-5);
    }
  TG_GRADCHECK (pad_first_f, &B, &NH, &V, &Vp, xf, yf);
  TG_GRADCHECK (pad_between_f, &B, &NH, &V, &Vp, xf, yf);
  TG_GRADCHECK (pad_last_f, &B, &NH, &V, &Vp, xf, yf);
  TG_GRADCHECK_NULL (pad_between_f, "x", &B, &NH, &V, &Vp, xf, yf);

  int B2 = 3, V2 = 4, Vp2 = 7;
  double *x = tg_alloc (B2 * Vp2), *y = tg_alloc (B2 * Vp2);
  tg_fill (x, B2 * Vp2, 2, -2, 2);
  void (*kd[3]) (int, int, int, const double *, double *)
      = { pad_first_d, pad_between_d, pad_last_d };
  for (int k = 0; k < 3; k++)
    {
      for (int i = 0; i < B2 * Vp2; i++)
        y[i] = 7.0;
      kd[k](B2, V2, Vp2, x, y);
      check_rows (B2, V2, Vp2, x, y, 1e-12);
    }
  TG_GRADCHECK (pad_first_d, &B2, &V2, &Vp2, x, y);
  TG_GRADCHECK (pad_between_d, &B2, &V2, &Vp2, x, y);
  TG_GRADCHECK (pad_last_d, &B2, &V2, &Vp2, x, y);
  TG_GRADCHECK_NULL (pad_first_d, "p", &B2, &V2, &Vp2, x, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "version: p, written again by a later loop nest, keeps the values of the earlier one in p.v1" } } */
/* { dg-final { scan-tensorgrad-dump "version: y, written again by a later loop nest, keeps the values of the earlier one in y.v1" } } */
