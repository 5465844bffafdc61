/* { dg-do run } */
/* Edge sizes of a 2-D bias kernel y[i*m+j] = x[i*m+j] * b[j] + b[j]:
   zero-trip loops (n = 0, then m = 0) must leave every shadow and array
   untouched; sizes of one (n = m = 1) and a single row or column must
   give the central-difference gradient.  Checks, for each size, every
   d_x and d_b, accumulation into pre-filled shadows, and that x, b, y,
   d_y are untouched (canaries past the used elements included).  Checked by
   hand: canaries past the used elements and zero-trip sizes lie outside
   what a descriptor covers.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bias_mul (int n, int m, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] * b[j] + b[j];
}

#define CAP 16

struct ctx
{
  int n, m;
  double *x, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  bias_mul (k->n, k->m, k->x, k->b, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

static void
run (int n, int m)
{
  double x[CAP], b[CAP], y[CAP], c[CAP], d_x[CAP], d_b[CAP], d_y[CAP];
  double x0[CAP], b0[CAP], y0[CAP], pre_x[CAP], pre_b[CAP];
  double g_x[CAP], g_b[CAP];
  int nm = n * m;
  tg_fill (x, CAP, 1 + n, -2, 2);
  tg_fill (b, CAP, 2 + m, -2, 2);
  tg_fill (y, CAP, 3, -9, 9);
  tg_fill (c, CAP, 4, -1, 1);
  tg_fill (d_x, CAP, 5, -1, 1);
  tg_fill (d_b, CAP, 6, -1, 1);

  bias_mul (n, m, x, b, y);
  memcpy (x0, x, sizeof x);
  memcpy (b0, b, sizeof b);
  memcpy (y0, y, sizeof y);
  memcpy (d_y, c, sizeof c);
  memcpy (pre_x, d_x, sizeof d_x);
  memcpy (pre_b, d_b, sizeof d_b);

  bias_mul_grad (n, m, x, b, y, d_x, d_b, d_y);

  CHECK_SAME (x, x0, sizeof x);
  CHECK_SAME (b, b0, sizeof b);
  CHECK_SAME (y, y0, sizeof y);
  CHECK_SAME (d_y, c, sizeof c);
  /* Nothing past the used elements is written.  */
  CHECK_SAME (d_x + nm, pre_x + nm, (CAP - nm) * sizeof (double));
  CHECK_SAME (d_b + (n ? m : 0), pre_b + (n ? m : 0),
	      (CAP - (n ? m : 0)) * sizeof (double));
  if (nm == 0)
    {
      CHECK_SAME (d_x, pre_x, sizeof d_x);
      CHECK_SAME (d_b, pre_b, sizeof d_b);
      return;
    }
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_b, d_b, pre_b, m);
  struct ctx k = { n, m, x, b, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &k, g_b, TG_RTOL, TG_ATOL);
}

int
main (void)
{
  run (0, 3);
  run (3, 0);
  run (0, 0);
  run (1, 1);
  run (1, 5);
  run (5, 1);
  return tg_exit ();
}
