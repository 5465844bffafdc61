/* { dg-do run } */
/* { dg-options "-fstack-protector-strong" } */
/* Kernels under -fstack-protector-strong, which puts a canary into every
   function with a local array when it expands to RTL: the kernels with
   their fixed-size and variable-length scratch get one, the gradient
   one where it has such an array of its own (its scratch comes from
   calloc).  Nothing of it is in the GIMPLE the plugin lifts.

   tile4: per tile of 4, acc[4] = x[i+r] w[r] over the tile, then
       y[i+r] = acc[r]^2 + acc[r]:  with g = d_y[i+r] (2 acc[r] + 1),
       d_x[i+r] += g w[r], d_w[r] += sum_i g x[i+r].
   smooth: a VLA t[n] = x[i]^2, y[i] = t[i] + t[n-1-i]:
       d_x[i] += 2 x[i] (d_y[i] + d_y[n-1-i]).
   Each is checked through its descriptor.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
tile4 (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i + 4 <= n; i += 4)
    {
      double acc[4];
      for (int r = 0; r < 4; r++)
	acc[r] = x[i + r] * w[r];
      for (int r = 0; r < 4; r++)
	y[i + r] = acc[r] * acc[r] + acc[r];
    }
}

__attribute__ ((differentiable))
void
smooth (int n, const double *x, double *y)
{
  double t[n];
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] + t[n - 1 - i];
}

TG_DECLARE_GRADCHECK (tile4);
TG_DECLARE_GRADCHECK (smooth);

int
main (void)
{
  int n = 12;
  double *x = tg_alloc (n), *w = tg_alloc (4), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, 4, 2, -2, 2);
  TG_GRADCHECK (tile4, &n, x, w, y);
  int k = 7;
  TG_GRADCHECK (smooth, &k, x, y);
  free (x), free (w), free (y);
  return tg_exit ();
}
