/* { dg-do run } */
/* Stencils stepped through time: the state's neighbours read behind
   conditions on the index, or only the interior updated and the
   boundary kept.  The state gets a tape (carry.c); a read behind j > 0
   or j + 1 < n reaches only the elements the conditions allow
   (te_read_range); an update of the interior writes the whole row of the
   tape, keeping the boundary ("tape: the update of 'u' writes 1 to
   n + -2").
     heat:      u_{t+1}[j] = u[j] + a (u[j-1] - 2 u[j] + u[j+1]), zero
                outside, float; the loss sums the squares of the final
                state.
     heat_kept: the interior updated through un[j] and copied back, the
                two ends held at their initial values.
     chain:     masses coupled to their neighbours, per sample of a batch,
                velocities in one loop and positions in the next.
     wave:      the wave equation with two time levels carried (the
                previous and the current), each interior updated in a
                loop of its own, the boundary held.
   Not yet: two states whose interiors one loop updates
   (err-state-partial-1.c).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
heat (int T, int n, float a, const float *u0, float *loss)
{
  float u[64], un[64];
  for (int j = 0; j < n; j++)
    u[j] = u0[j];
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < n; j++)
        {
          float l = j > 0 ? u[j - 1] : 0.0f;
          float r = j + 1 < n ? u[j + 1] : 0.0f;
          un[j] = u[j] + a * (l - 2.0f * u[j] + r);
        }
      for (int j = 0; j < n; j++)
        u[j] = un[j];
    }
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += u[j] * u[j];
  loss[0] = s;
}

__attribute__ ((differentiable))
void
heat_kept (int T, int n, double a, const double *u0, double *uT)
{
  double u[64], un[64];
  for (int j = 0; j < n; j++)
    u[j] = u0[j];
  for (int t = 0; t < T; t++)
    {
      for (int j = 1; j < n - 1; j++)
        un[j] = u[j] + a * (u[j - 1] - 2 * u[j] + u[j + 1]);
      for (int j = 1; j < n - 1; j++)
        u[j] = un[j];
    }
  for (int j = 0; j < n; j++)
    uT[j] = u[j] * u[j];
}

__attribute__ ((differentiable))
void
chain (int B, int T, int n, double dt, const double *p0, const double *k,
       double c, double *pT)
{
  for (int b = 0; b < B; b++)
    {
      double p[16], v[16];
      for (int j = 0; j < n; j++)
        {
          p[j] = p0[b * n + j];
          v[j] = 0.0;
        }
      for (int t = 0; t < T; t++)
        {
          for (int j = 0; j < n; j++)
            {
              double left = j > 0 ? p[j - 1] : 0.0;
              double right = j + 1 < n ? p[j + 1] : 0.0;
              v[j] += dt * (k[j] * (left + right - 2 * p[j]) - c * v[j]);
            }
          for (int j = 0; j < n; j++)
            p[j] += dt * v[j];
        }
      for (int j = 0; j < n; j++)
        pT[b * n + j] = p[j];
    }
}

__attribute__ ((differentiable))
void
wave (int T, int n, double c2, const double *u0, const double *u1,
      double *uT)
{
  double prev[32], cur[32], next[32];
  for (int j = 0; j < n; j++)
    {
      prev[j] = u0[j];
      cur[j] = u1[j];
    }
  for (int t = 0; t < T; t++)
    {
      for (int j = 1; j < n - 1; j++)
        next[j] = 2 * cur[j] - prev[j]
                  + c2 * (cur[j - 1] - 2 * cur[j] + cur[j + 1]);
      for (int j = 1; j < n - 1; j++)
        prev[j] = cur[j];
      for (int j = 1; j < n - 1; j++)
        cur[j] = next[j];
    }
  for (int j = 0; j < n; j++)
    uT[j] = cur[j];
}

int
main (void)
{
  int T = 5, n = 7;
  float af = 0.2f, u0f[7], loss[1];
  tg_fill_f (u0f, 7, 1, -1, 1);
  TG_GRADCHECK (heat, &T, &n, &af, u0f, loss);
  TG_GRADCHECK_NULL (heat, "a", &T, &n, &af, u0f, loss);

  double a = 0.2, u0[7], uT[7];
  tg_fill (u0, 7, 2, -1, 1);
  TG_GRADCHECK (heat_kept, &T, &n, &a, u0, uT);
  int n3 = 3, n2 = 2;
  TG_GRADCHECK (heat_kept, &T, &n3, &a, u0, uT);
  TG_GRADCHECK (heat_kept, &T, &n2, &a, u0, uT);

  int B = 2, Tc = 4, m = 4;
  double dt = 0.1, c = 0.3, p0[8], k[4], pT[8];
  tg_fill (p0, 8, 3, -1, 1);
  tg_fill (k, 4, 4, 0.5, 2);
  TG_GRADCHECK (chain, &B, &Tc, &m, &dt, p0, k, &c, pT);
  TG_GRADCHECK_NULL (chain, "k", &B, &Tc, &m, &dt, p0, k, &c, pT);
  double c2 = 0.25, w0[6], w1[6], wT[6];
  int nw = 6;
  tg_fill (w0, 6, 5, -1, 1);
  tg_fill (w1, 6, 6, -1, 1);
  TG_GRADCHECK (wave, &T, &nw, &c2, w0, w1, wT);
  return tg_exit ();
}
