/* { dg-do run } */
/* Loops skipped past a bound with continue, and an if/else loss of fabs.
     causal:  causal attention scores, the keys after the query skipped
              with if (u > t) continue; the loop then runs to u <= t
              ("bounds:" in the dump, bounds-dump-1.c), as
              attention-1.c writes it.
     huber:   a Huber loss of fabs (a - b), averaged, returned.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
causal (int T, int d, const double *q, const double *k, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double mx = -1e30;
      for (int u = 0; u < T; u++)
        {
          if (u > t)
            continue;
          double s = 0;
          for (int i = 0; i < d; i++)
            s += q[t * d + i] * k[u * d + i];
          p[t * T + u] = s;
          if (s > mx)
            mx = s;
        }
      double z = 0;
      for (int u = 0; u <= t; u++)
        {
          p[t * T + u] = exp (p[t * T + u] - mx);
          z += p[t * T + u];
        }
      for (int u = 0; u < T; u++)
        p[t * T + u] = u <= t ? p[t * T + u] / z : 0.0;
    }
}

__attribute__ ((differentiable))
double
huber (int n, const double *a, const double *b, double d)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      double r = fabs (a[i] - b[i]);
      s += r <= d ? 0.5 * r * r : d * (r - 0.5 * d);
    }
  return s / n;
}

int
main (void)
{
  int T = 4, d = 3;
  double q[12], k[12], p[16];
  tg_fill (q, 12, 1, -1, 1);
  tg_fill (k, 12, 2, -1, 1);
  TG_GRADCHECK (causal, &T, &d, q, k, p);
  int n = 7;
  double a[7], b[7], dd = 0.5;
  tg_fill (a, 7, 3, -1, 1);
  tg_fill (b, 7, 4, -1, 1);
  TG_GRADCHECK (huber, &n, a, b, &dd);
  return tg_exit ();
}
