/* { dg-do run } */
/* An output written by one nest and read back by a later reduction nest
   that writes a second output, n x m = 5 x 3 at run time:
     y[i*m+j] = x[i*m+j] * w[j];   z[i] = sum_j y[i*m+j]^2.
   y is an output (the kernel reads only values it wrote), so d_y holds
   the incoming adjoint and stays unchanged; the loss sees y directly and
   through z:
     d_x[i*m+j] += (d_y[i*m+j] + 2 d_z[i] y[i*m+j]) w[j];
     d_w[j] += sum_i (d_y[i*m+j] + 2 d_z[i] y[i*m+j]) x[i*m+j].
   TG_GRADCHECK checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, z, d_y, d_z are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
readback2 (int n, int m, const double *x, const double *w, double *y,
	   double *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] * w[j];
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += y[i * m + j] * y[i * m + j];
      z[i] = s;
    }
}

int
main (void)
{
  int n = 5, m = 3;
  double *x = tg_alloc (n * m), *w = tg_alloc (m), *y = tg_alloc (n * m);
  double *z = tg_alloc (n);
  tg_fill (x, n * m, 1, -2, 2);
  tg_fill (w, m, 2, -2, 2);
  TG_GRADCHECK (readback2, &n, &m, x, w, y, z);
  return tg_exit ();
}
