/* { dg-do run } */
/* State that a time loop carries, inside a loop over the samples of a
   batch: every sample starts its state anew (a local array, zeroed or
   set from its input), and the time loop updates it in place.  The
   gradient keeps a tape per sample, one row per step and one for the
   initial state ("tape:" in the dump, B (T + 1) rows).
     decay:   h_0[i] = 0.1 i,  h_{t+1}[i] = tanh (a[i] h_t[i] + x[b][t][i]),
              y[b][i] = h_T[i]^2: d_h_t[i] = d_h_{t+1}[i] (1 - h_{t+1}^2) a[i],
              d_a[i] += sum_{b,t} d_h_{t+1}[i] (1 - h_{t+1}^2) h_t[i];
     springs: per sample, n masses with positions p and velocities v
              (p from the input, v = 0), explicit Euler over T steps
              with stiffness k[j] and damping c (a scalar), float, both
              updates in one inner loop; the final positions are the
              output.
     loss:    the decay with a loss per sample summed over its steps,
              read after each update, through a pointer to the sample's
              inputs.
   Not yet: a loss summed over the samples and the steps into one
   scalar, and the two updates of an Euler step in two inner loops (the
   first reads what the second wrote in the step before; that needs a
   recurrence over the inner of two loops).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
decay (int B, int T, int H, const double *x, const double *a, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double h[8];
      for (int i = 0; i < H; i++)
        h[i] = 0.1 * i;
      for (int t = 0; t < T; t++)
        for (int i = 0; i < H; i++)
          h[i] = tanh (a[i] * h[i] + x[(b * T + t) * H + i]);
      for (int i = 0; i < H; i++)
        y[b * H + i] = h[i] * h[i];
    }
}

__attribute__ ((differentiable))
void
springs (int B, int T, int n, float dt, const float *p0, const float *k,
         float c, float *pT)
{
  for (int b = 0; b < B; b++)
    {
      float p[n], v[n];
      for (int j = 0; j < n; j++)
        {
          p[j] = p0[b * n + j];
          v[j] = 0.0f;
        }
      for (int t = 0; t < T; t++)
        for (int j = 0; j < n; j++)
          {
            v[j] += dt * (-k[j] * p[j] - c * v[j]);
            p[j] += dt * v[j];
          }
      for (int j = 0; j < n; j++)
        pT[b * n + j] = p[j];
    }
}

__attribute__ ((differentiable))
void
loss (int B, int T, int H, const double *x, const double *a, double *l)
{
  for (int b = 0; b < B; b++)
    {
      const double *xb = x + b * T * H;
      double h[H];
      for (int i = 0; i < H; i++)
        h[i] = 0;
      double s = 0;
      for (int t = 0; t < T; t++)
        {
          for (int i = 0; i < H; i++)
            h[i] = tanh (a[i] * h[i] + xb[t * H + i]);
          for (int i = 0; i < H; i++)
            s += h[i] * h[i];
        }
      l[b] = s;
    }
}

int
main (void)
{
  int B = 3, T = 4, H = 3;
  double *x = tg_alloc (B * T * H), *a = tg_alloc (H), *y = tg_alloc (B * H);
  tg_fill (x, B * T * H, 1, -1, 1);
  tg_fill (a, H, 2, -0.9, 0.9);
  TG_GRADCHECK (decay, &B, &T, &H, x, a, y);
  TG_GRADCHECK_NULL (decay, "a", &B, &T, &H, x, a, y);
  double *l = tg_alloc (B);
  TG_GRADCHECK (loss, &B, &T, &H, x, a, l);

  int Bs = 2, Ts = 5, n = 3;
  float dt = 0.1f, c = 0.3f;
  float *p0 = tg_alloc_f (Bs * n), *k = tg_alloc_f (n);
  float *pT = tg_alloc_f (Bs * n);
  tg_fill_f (p0, Bs * n, 3, -1, 1);
  tg_fill_f (k, n, 4, 0.5, 2);
  TG_GRADCHECK (springs, &Bs, &Ts, &n, &dt, p0, k, &c, pT);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "tape: 'h', carried by the loop over t, keeps its value in every iteration: " } } */
