/* The program of build.exp's make test: it includes the header kern.o's
   compile writes (-fplugin-arg-tensorgrad-header=kern.h) and checks
   scale_grad against central differences of scale, whatever factor
   build.exp put in scale's body.  Exits 0 and prints "build: ok" when
   they agree.  */

#include <math.h>
#include <stdio.h>
#include "kern.h"

void scale (int n, const double *x, double *y);

int
main (void)
{
  enum { N = 5 };
  double x[N], y[N], yp[N], ym[N], d_x[N] = { 0 }, d_y[N];
  int bad = 0;
  for (int i = 0; i < N; i++)
    {
      x[i] = 0.3 * i - 0.5;
      d_y[i] = 1.0 + 0.5 * i;
    }
  scale (N, x, y);
  scale_grad (N, x, y, d_x, d_y);
  for (int k = 0; k < N; k++)
    {
      double h = 1e-6, xk = x[k], fd = 0;
      x[k] = xk + h;
      scale (N, x, yp);
      x[k] = xk - h;
      scale (N, x, ym);
      x[k] = xk;
      for (int i = 0; i < N; i++)
        fd += d_y[i] * (yp[i] - ym[i]) / (2 * h);
      if (fabs (d_x[k] - fd) > 1e-6 * (1 + fabs (fd)))
        {
          printf ("d_x[%d] = %.17g, central difference %.17g\n", k, d_x[k],
                  fd);
          bad = 1;
        }
    }
  puts (bad ? "build: FAILED" : "build: ok");
  return bad;
}
