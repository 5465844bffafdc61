/* { dg-do run } */
/* How to rewrite (README): two states shifted by one loop over part of
   their elements.  The rewrite of tensorgrad.err/rewrite-state-partial.c:
   prev and cur each get a loop of their own.  Checked: uT equals the
   original's (compiled here as plain C), and the gradient through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define wave wave_orig
#include "tensorgrad.err/rewrite-state-partial.c"
#undef wave
#undef differentiable

__attribute__ ((differentiable))
void
wave (int T, int n, double c2, const double *u0, const double *u1,
      double *uT)
{
  double prev[n], cur[n], next[n];
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
  int T = 4, n = 6;
  double c2 = 0.3;
  double *u0 = tg_alloc (n), *u1 = tg_alloc (n);
  double *uT = tg_alloc (n), *uT0 = tg_alloc (n);
  tg_fill (u0, n, 1, -1, 1);
  tg_fill (u1, n, 2, -1, 1);
  wave_orig (T, n, c2, u0, u1, uT0);
  wave (T, n, c2, u0, u1, uT);
  CHECK_SAME (uT, uT0, n * sizeof *uT);
  TG_GRADCHECK (wave, &T, &n, &c2, u0, u1, uT);
  return tg_exit ();
}
