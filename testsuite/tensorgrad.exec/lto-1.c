/* { dg-do run } */
/* { dg-options "-flto" } */
/* With -flto the plugin is loaded by lto1 too, at the link: it must load
   there (it uses front-end functions only where they exist) and the
   gradient made at compile time must work.  A normalization with two
   reductions: with s = sqrt (v / n + 1e-3), y = (x - mean) / s,
   d_x[i] += (d_y[i] - mean (d_y) - y[i] mean (d_y y)) / s.
   TG_GRADCHECK checks every d_x against central differences,
   accumulation into d_x, and that x, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
norm (int n, const double *x, double *y)
{
  double mean = 0;
  for (int i = 0; i < n; i++)
    mean += x[i];
  mean /= n;
  double v = 0;
  for (int i = 0; i < n; i++)
    v += (x[i] - mean) * (x[i] - mean);
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - mean) / sqrt (v / n + 1e-3);
}

int
main (void)
{
  int n = 6;
  double x[6], y[6] = { 0 };
  tg_fill (x, n, 71, -1, 1);
  TG_GRADCHECK (norm, &n, x, y);
  return tg_exit ();
}
