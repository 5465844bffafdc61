/* Another translation unit: calls the gradients of header-1.c through the
   prototypes the plugin wrote, and checks them against the formulas.  */
#include <math.h>
#include <string.h>
#include "header-1.gen.h"
#include "tg-test.h"

void scale_exp (int n, double a, const double *x, double *y);
void rows (int n, int m, const double x[n][m], double y[n]);

#ifndef TENSORGRAD_HEADER_1_GEN_H
#error "the header's include guard is not named after its file"
#endif

/* A static kernel's gradient is not in the header: were it declared
   there, this enumerator would clash with it.  */
enum { hidden_grad = 0 };

int
main (void)
{
  enum { N = 4, M = 3 };
  double x[N * M], y[N], dx[N * M], dy[N], a = 0.5, da = 0;
  tg_fill (x, N * M, 41, -1, 1);
  tg_fill (dy, N, 42, -1, 1);
  scale_exp (N, a, x, y);
  memset (dx, 0, sizeof dx);
  scale_exp_grad (N, a, x, y, &da, dx, dy);
  double want = 0;
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR (dx[i], dy[i] * a * y[i], 1e-14, 1e-14);
      want += dy[i] * x[i] * y[i];
    }
  CHECK_NEAR (da, want, 1e-14, 1e-14);
  rows (N, M, (const double (*)[M]) x, y);
  memset (dx, 0, sizeof dx);
  rows_grad (N, M, x, y, dx, dy);
  for (int i = 0; i < N * M; i++)
    CHECK_NEAR (dx[i], 2 * x[i] * dy[i / M], 1e-14, 1e-14);
  return tg_exit ();
}
