/* { dg-do run } */
/* One step of a GRU cell as C code writes it: a first inner loop computes
   the reset gate r from the input and the previous state, a second the
   update gate and the candidate, whose matrix product reads r[k] * h[k]
   for every k, then the new state.  The reset gate is an output too (a
   cache the backward of a training loop keeps).  With z = sigm (az),
   c = tanh (ah), h' = (1 - z) h + z c:
     d_ah = d_h' z (1 - c^2), d_az = d_h' (c - h) z (1 - z),
     d_r[k] += sum_j d_ah[j] Uh[j][k] h[k] + d_r_out[k],
     d_ar = d_r r (1 - r), d_h[k] += (1 - z[k]) d_h'[k]
       + sum_j (d_az[j] Uz[j][k] + d_ah[j] Uh[j][k] r[k] + d_ar[j] Ur[j][k]),
   and the weights' adjoints their outer products.  Double with the
   previous state at an offset of a larger buffer, float with the
   weights in one packed array.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
sigm (double a)
{
  return 1 / (1 + exp (-a));
}

__attribute__ ((differentiable))
void
gru (int H, int I, const double *x, const double *hp, const double *Wz,
     const double *Uz, const double *Wr, const double *Ur, const double *Wh,
     const double *Uh, double *r, double *hn)
{
  for (int j = 0; j < H; j++)
    {
      double s = 0;
      for (int i = 0; i < I; i++)
        s += Wr[j * I + i] * x[i];
      for (int k = 0; k < H; k++)
        s += Ur[j * H + k] * hp[k];
      r[j] = sigm (s);
    }
  for (int j = 0; j < H; j++)
    {
      double sz = 0, sh = 0;
      for (int i = 0; i < I; i++)
        {
          sz += Wz[j * I + i] * x[i];
          sh += Wh[j * I + i] * x[i];
        }
      for (int k = 0; k < H; k++)
        {
          sz += Uz[j * H + k] * hp[k];
          sh += Uh[j * H + k] * (r[k] * hp[k]);
        }
      double z = sigm (sz), c = tanh (sh);
      hn[j] = (1 - z) * hp[j] + z * c;
    }
}

__attribute__ ((differentiable))
void
gru_f (int H, const float *x, const float *h, const float *W, float *r,
       float *out)
{
  /* W: Ur, Uz, Uh (H x H each), then the input weights wr, wz, wh (H).  */
  const float *Ur = W, *Uz = W + H * H, *Uh = W + 2 * H * H;
  const float *w = W + 3 * H * H;
  for (int j = 0; j < H; j++)
    {
      float s = w[j] * x[0];
      for (int k = 0; k < H; k++)
        s += Ur[j * H + k] * h[k];
      r[j] = 1.0f / (1.0f + expf (-s));
    }
  for (int j = 0; j < H; j++)
    {
      float sz = w[H + j] * x[0], sh = w[2 * H + j] * x[0];
      for (int k = 0; k < H; k++)
        {
          sz += Uz[j * H + k] * h[k];
          sh += Uh[j * H + k] * r[k] * h[k];
        }
      float z = 1.0f / (1.0f + expf (-sz));
      out[j] = (1 - z) * h[j] + z * tanhf (sh);
    }
}

int
main (void)
{
  int H = 3, I = 2;
  double *x = tg_alloc (I), *hbuf = tg_alloc (H + 2);
  double *Wz = tg_alloc (H * I), *Wr = tg_alloc (H * I), *Wh = tg_alloc (H * I);
  double *Uz = tg_alloc (H * H), *Ur = tg_alloc (H * H), *Uh = tg_alloc (H * H);
  double *r = tg_alloc (H), *hn = tg_alloc (H);
  tg_fill (x, I, 1, -1, 1);
  tg_fill (hbuf, H + 2, 2, -1, 1);
  tg_fill (Wz, H * I, 3, -1, 1);
  tg_fill (Wr, H * I, 4, -1, 1);
  tg_fill (Wh, H * I, 5, -1, 1);
  tg_fill (Uz, H * H, 6, -1, 1);
  tg_fill (Ur, H * H, 7, -1, 1);
  tg_fill (Uh, H * H, 8, -1, 1);
  TG_GRADCHECK (gru, &H, &I, x, hbuf + 2, Wz, Uz, Wr, Ur, Wh, Uh, r, hn);
  TG_GRADCHECK_NULL (gru, "Wz r", &H, &I, x, hbuf + 2, Wz, Uz, Wr, Ur, Wh,
                     Uh, r, hn);

  int Hf = 4;
  float *xf = tg_alloc_f (1), *hf = tg_alloc_f (Hf);
  float *Wf = tg_alloc_f (3 * Hf * Hf + 3 * Hf);
  float *rf = tg_alloc_f (Hf), *of = tg_alloc_f (Hf);
  tg_fill_f (xf, 1, 9, 0.5, 1);
  tg_fill_f (hf, Hf, 10, -1, 1);
  tg_fill_f (Wf, 3 * Hf * Hf + 3 * Hf, 11, -1, 1);
  TG_GRADCHECK (gru_f, &Hf, xf, hf, Wf, rf, of);
  return tg_exit ();
}
