/* { dg-do run } */
/* How to rewrite (README): a sum stored after a loop rewrote what it
   summed.  The rewrite of tensorgrad.err/rewrite-sum-rewrite.c: each
   entry is stored once, already cleared, and the sum adds up the squares
   themselves.  (The note's advice, the sum stored before the clearing
   loop, is refused too: that loop overwrites part of the row, "'p' is
   written by more than one loop nest".)  Checked: p
   and zs equal the original's (compiled here as plain C), and the
   gradient through the descriptor, x away from the kink at 0.  */

#include "tg-test.h"

#define differentiable unused
#define clip_after_sum clip_after_sum_orig
#include "tensorgrad.err/rewrite-sum-rewrite.c"
#undef clip_after_sum
#undef differentiable

__attribute__ ((differentiable))
void
clip_after_sum (int B, int V, const double *x, double *p, double *zs)
{
  for (int b = 0; b < B; b++)
    {
      double z = 0;
      for (int j = 0; j < V; j++)
        {
          double q = x[b * V + j] * x[b * V + j];
          z += q;
          p[b * V + j] = x[b * V + j] > 0 ? 0 : q;
        }
      zs[b] = z;
    }
}

int
main (void)
{
  int B = 3, V = 4;
  double *x = tg_alloc (B * V), *p = tg_alloc (B * V), *zs = tg_alloc (B);
  double *p0 = tg_alloc (B * V), *zs0 = tg_alloc (B);
  tg_fill_away (x, B * V, 1, -2, 2, 0, 0.1);
  clip_after_sum_orig (B, V, x, p0, zs0);
  clip_after_sum (B, V, x, p, zs);
  CHECK_SAME (p, p0, B * V * sizeof *p);
  CHECK_SAME (zs, zs0, B * sizeof *zs);
  TG_GRADCHECK (clip_after_sum, &B, &V, x, p, zs);
  return tg_exit ();
}
