/* { dg-do run } */
/* memcpy and memset in kernels under _FORTIFY_SOURCE=2, which glibc
   honours only when optimizing (at -O0 it would warn and ignore it): in
   the forward GCC makes them __memcpy_chk and __memset_chk with the
   destination's object size, after the plugin's pass, which lifts the
   calls as plain copies and clearings (a loop over the elements each).

   clear_add: memset (y, 0, n * m * sizeof *y), then y[i*m + j] +=
       x[i*m + j] * w[j] over the rows:  d_x[i*m + j] += d_y[i*m + j] w[j],
       d_w[j] += sum_i d_y[i*m + j] x[i*m + j].
   copy_sq: memcpy (t, x, n * sizeof *t) into a local double t[8], then
       y[i] = t[i]^2 + t[i]:  d_x[i] += d_y[i] (2 x[i] + 1).
   Each is checked through its descriptor; then, where fortification is
   on, copy_sq with n = 9 must stop on glibc's check of the copy into
   t[8] (*** buffer overflow detected ***, SIGABRT).  */

#if defined __OPTIMIZE__ && !defined _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#endif
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
clear_add (int n, int m, const double *x, const double *w, double *y)
{
  memset (y, 0, n * m * sizeof *y);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] += x[i * m + j] * w[j];
}

__attribute__ ((differentiable))
void
copy_sq (int n, const double *x, double *y)
{
  double t[8];
  memcpy (t, x, n * sizeof *t);
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[i] + t[i];
}

TG_DECLARE_GRADCHECK (clear_add);
TG_DECLARE_GRADCHECK (copy_sq);

static void
overflow_copy (void)
{
  double x[9] = { 0 }, y[9];
  volatile int n = 9;
  copy_sq (n, x, y);
}

int
main (void)
{
  int n = 3, m = 4;
  double *x = tg_alloc (n * m), *w = tg_alloc (m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (w, m, 2, -2, 2);
  TG_GRADCHECK (clear_add, &n, &m, x, w, y);

  int k = 6;
  double *xk = tg_alloc (k), *yk = tg_alloc (k);
  tg_fill (xk, k, 3, -2, 2);
  TG_GRADCHECK (copy_sq, &k, xk, yk);

#if defined __USE_FORTIFY_LEVEL && __USE_FORTIFY_LEVEL > 0
  char buf[4096];
  CHECK (tg_child_aborts (overflow_copy, buf, sizeof buf)
	 && strstr (buf, "buffer overflow detected"));
#else
  (void) overflow_copy;
#endif
  free (x), free (w), free (y), free (xk), free (yk);
  return tg_exit ();
}
