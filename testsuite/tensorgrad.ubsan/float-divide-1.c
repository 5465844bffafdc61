/* { dg-do run } */
/* { dg-options "-fsanitize=float-divide-by-zero" } */
/* Floating division under -fsanitize=float-divide-by-zero (not part of
   -fsanitize=undefined) besides ubsan.exp's -fsanitize=undefined
   -fno-sanitize-recover: the C front end checks every floating divisor
   against zero, a branch to a noreturn handler inside the loops, also
   inside a reduction.  The plugin reads past the checks; the forward
   keeps them.

   ratio: y[i] = x[i] / d[i]:
     d_x[i] += d_y[i] / d[i],  d_d[i] -= d_y[i] x[i] / d[i]^2.
   mean_ratio: return sum_i x[i] / (1 + x[i]^2) / n:
     d_x[i] += d_return (1 - x[i]^2) / (1 + x[i]^2)^2 / n.
   Each is checked through its descriptor; then the forward, called with
   a zero divisor, must stop on UBSan's report.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ratio (int n, const double *x, const double *d, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] / d[i];
}

__attribute__ ((differentiable))
double
mean_ratio (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] / (1 + x[i] * x[i]);
  return s / n;
}

TG_DECLARE_GRADCHECK (ratio);
TG_DECLARE_GRADCHECK (mean_ratio);

/* A zero divisor: the forward's check reports it and stops.  */
static void
zero_divisor (void)
{
  double x[2] = { 1, 2 }, d[2] = { 1, 0 }, y[2];
  ratio (2, x, d, y);
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *d = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill_away (d, n, 2, -2, 2, 0, 0.5);
  TG_GRADCHECK (ratio, &n, x, d, y);
  TG_GRADCHECK (mean_ratio, &n, x);

  CHECK (tg_child_reports (zero_divisor, "division by zero", 0));
  free (x), free (d), free (y);
  return tg_exit ();
}
