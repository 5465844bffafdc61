/* { dg-do run } */
/* Arrays of integers narrower than int, and of bool, read as the int
   they convert to (abi.cc; the emitter loads them at their own width):
     masked_mean:    an unsigned char mask and an integer count, float.
     sel:            a uint8_t keep flag and an int16_t weight.
     masked_softmax: a bool mask, the maximum taken only over the kept
                     entries (if (keep[j] && x[j] > mx) mx = x[j]: a
                     guarded compare-select, te_match_update).
     scaled:         int8_t and uint16_t factors, float.  */

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
masked_mean (int n, const float *x, const unsigned char *mask, float *out)
{
  float s = 0.0f;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      {
        s += x[i] * x[i];
        cnt++;
      }
  out[0] = cnt ? s / cnt : 0.0f;
}
__attribute__ ((differentiable))
void
sel (int n, const double *x, const uint8_t *keep, const int16_t *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = keep[i] != 0 ? x[i] * w[i] : 0.0;
}
__attribute__ ((differentiable))
void
masked_softmax (int n, int m, const double *x, const bool *keep, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mx = -1e30;
      for (int j = 0; j < m; j++)
        if (keep[i * m + j] && x[i * m + j] > mx)
          mx = x[i * m + j];
      double z = 0;
      for (int j = 0; j < m; j++)
        z += keep[i * m + j] ? exp (x[i * m + j] - mx) : 0.0;
      for (int j = 0; j < m; j++)
        y[i * m + j] = keep[i * m + j] ? exp (x[i * m + j] - mx) / z : 0.0;
    }
}
__attribute__ ((differentiable))
void
scaled (int n, const float *x, const int8_t *q, const uint16_t *s, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * q[i] + 0.001f * s[i] * x[i] * x[i];
}
int
main (void)
{
  int n = 9;
  float x[9], out[1];
  unsigned char m[9] = { 1, 0, 1, 1, 0, 0, 1, 0, 1 };
  tg_fill_f (x, 9, 1, -1, 1);
  TG_GRADCHECK (masked_mean, &n, x, m, out);
  double xd[9], y[9];
  uint8_t k[9] = { 1, 0, 1, 1, 0, 0, 1, 0, 255 };
  int16_t w[9] = { 1, -2, 3, 4, -5, 6, 7, 8, -32768 };
  tg_fill (xd, 9, 2, -1, 1);
  TG_GRADCHECK (sel, &n, xd, k, w, y);

  int r = 3, c = 4;
  double xs[12], ys[12];
  bool keep[12] = { 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1 };
  tg_fill (xs, 12, 3, -1, 1);
  TG_GRADCHECK (masked_softmax, &r, &c, xs, keep, ys);

  int q5 = 5;
  float xf[5], yf[5];
  int8_t q[5] = { -3, 2, 0, 127, -128 };
  uint16_t s[5] = { 1, 60000, 3, 400, 5 };
  tg_fill_f (xf, 5, 4, -1, 1);
  TG_GRADCHECK (scaled, &q5, xf, q, s, yf);
  return tg_exit ();
}
