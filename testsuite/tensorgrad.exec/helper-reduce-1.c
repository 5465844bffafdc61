/* { dg-do run } */
/* A helper kernel called inside the loop of a reduction, in a nest whose
   outer loop is the output's column: its value is substituted where the
   sum uses it, with the counters of the sum's own stage (before, the
   lifter substituted it in a stage of its own and the sum read counters
   no loop bound: an internal error in a checking build).

     g (a) = a tanh (a)
     t[i][j] = b[j] + sum_p g (x[i][p]) w[j][p]
     d_x[i][p] += sum_j d_t[i][j] w[j][p] g'(x[i][p]),
       g'(a) = tanh (a) + a (1 - tanh (a)^2)
     d_w[j][p] += sum_i d_t[i][j] g (x[i][p]);   d_b[j] += sum_i d_t[i][j]

   TG_GRADCHECK checks d_x, d_w and d_b against central differences,
   accumulation into the shadows, and that x, w, b, t and d_t are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
g (double a)
{
  return a * tanh (a);
}

__attribute__ ((differentiable))
void
layer (int n, int m, int k, const double *x, const double *w,
       const double *b, double *t)
{
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      {
	double s = b[j];
	for (int p = 0; p < k; p++)
	  s += g (x[i * k + p]) * w[j * k + p];
	t[i * m + j] = s;
      }
}

int
main (void)
{
  int n = 3, m = 4, k = 5;
  double *x = tg_alloc (n * k), *w = tg_alloc (m * k), *b = tg_alloc (m);
  double *t = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1.5, 1.5);
  tg_fill (w, m * k, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  TG_GRADCHECK (layer, &n, &m, &k, x, w, b, t);
  return tg_exit ();
}
