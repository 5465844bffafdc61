/* Calls rows and rows_grad (kern.c, compiled with the plugin) and checks
   the gradient twice: against the formula of kern.c, and with
   libtensorgrad's tg_gradcheck through the descriptor the plugin made.
   Prints "tg-install: ok" and exits 0 when both agree.  */

#include <math.h>
#include <stdio.h>
#include <tensorgrad.h>

void rows (int n, int m, double a, const double *x, double *y);
void rows_grad (int n, int m, double a, const double *x, double *y,
                double *d_a, double *d_x, double *d_y);
TG_DECLARE_GRADCHECK (rows);

int
main (void)
{
  enum { N = 3, M = 4 };
  int n = N, m = M, bad = 0;
  double a = 0.25, x[N * M], y[N], d_x[N * M] = { 0 }, d_y[N], d_a = 0;
  for (int k = 0; k < N * M; k++)
    x[k] = 0.1 * k - 0.5;
  for (int i = 0; i < N; i++)
    d_y[i] = 1.0 + i;
  rows (n, m, a, x, y);
  rows_grad (n, m, a, x, y, &d_a, d_x, d_y);

  double want_a = 0;
  for (int i = 0; i < N; i++)
    want_a += d_y[i] * y[i];
  if (fabs (d_a - want_a) > 1e-12 * (1 + fabs (want_a)))
    {
      printf ("d_a = %.17g, want %.17g\n", d_a, want_a);
      bad = 1;
    }
  for (int k = 0; k < N * M; k++)
    {
      double want = d_y[k / M] * exp (a) * 2 * x[k];
      if (fabs (d_x[k] - want) > 1e-12 * (1 + fabs (want)))
        {
          printf ("d_x[%d] = %.17g, want %.17g\n", k, d_x[k], want);
          bad = 1;
        }
    }

  tg_report r;
  if (tg_gradcheck (&rows_gradcheck, TG_ARGS (&n, &m, &a, x, y), NULL, &r))
    {
      tg_report_print (stdout, &r);
      bad = 1;
    }
  tg_report_free (&r);
  printf ("tg-install: %s (libtensorgrad %s)\n", bad ? "FAILED" : "ok",
          tg_version ());
  return bad;
}
