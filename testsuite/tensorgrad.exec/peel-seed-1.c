/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Recurrences seeded by their own loop's first iteration through a
   conditional: y[i] = i == 0 ? x[0] : y[i-1] + x[i] (a prefix sum), and a
   filter per row, z[r][t] = t == 0 ? x[r][0] : a z[r][t-1] + x[r][t].
   The first iteration gets a statement of its own (peel.c), so the loop
   reads only what earlier iterations wrote (it was refused: the read of
   element -1 is in the arm the first iteration does not take).  Gradients:
   prefix: d_x[i] += sum_{k>=i} d_y[k]; rows, with g[t] = d_z[r*T+t]
   + a g[t+1] (g[T] = 0): d_x[r*T+t] += g[t], *d_a += sum_r sum_{t>0}
   g[t] z[r*T+t-1].  TG_GRADCHECK checks d_x and d_a against central
   differences, accumulation into the shadows, and that x, y and d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prefix (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i == 0 ? x[0] : y[i - 1] + x[i];
}

__attribute__ ((differentiable))
void
rows (int R, int T, double a, const double *x, double *z)
{
  for (int r = 0; r < R; r++)
    for (int t = 0; t < T; t++)
      z[r * T + t] = t == 0 ? x[r * T] : a * z[r * T + t - 1] + x[r * T + t];
}

/* { dg-final { scan-tensorgrad-dump-times "peel: the first iteration of the loop writing" 2 } } */

enum { R = 2, T = 4, S = R * T };

int
main (void)
{
  int s = S, r = R, t = T;
  double a = 0.8, x[S], y[S] = { 0 };
  tg_fill (x, S, 1, -1, 1);
  TG_GRADCHECK (prefix, &s, x, y);
  TG_GRADCHECK (rows, &r, &t, &a, x, y);
  return tg_exit ();
}
