/* { dg-do run } */
/* A central difference on the interior of a row, float:
     y[i] = 1 <= i < n - 1 ? (x[i + 1] - x[i - 1]) * s[i] : 0,
   so d_x[i + 1] += s[i] d_y[i], d_x[i - 1] -= s[i] d_y[i] and
   d_s[i] += (x[i + 1] - x[i - 1]) d_y[i] for 1 <= i < n - 1.  The
   adjoints are guarded by the interior test (zero-guard.c); clip.c
   runs the stage's loop over 1 <= i < n - 1 instead.  Rows of 1, 2
   (no interior), 3 and 20 (lanes and a rest); checked against central
   differences, also with NULL shadows.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
diff (int n, const float *x, const float *s, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = i >= 1 && i < n - 1 ? (x[i + 1] - x[i - 1]) * s[i] : 0.0f;
}

static void
check (int n)
{
  float *x = tg_alloc_f (n), *s = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -1, 1);
  tg_fill_f (s, n, 2, -1, 1);
  TG_GRADCHECK (diff, &n, x, s, y);
  TG_GRADCHECK_NULL (diff, "x", &n, x, s, y);
  TG_GRADCHECK_NULL (diff, "s", &n, x, s, y);
}

int
main (void)
{
  check (1);
  check (2);
  check (3);
  check (20);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-after clip "clip: the loop over i runs where its statements' guards hold" } } */
/* { dg-final { scan-tensorgrad-backward "for \\(fused\\) 1 <= i < n \\+ -1:" } } */
