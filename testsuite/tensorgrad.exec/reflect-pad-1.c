/* { dg-do run } */
/* Reflect padding through an index reassigned in place (j = -j below 0,
   j = 2n - 2 - j past the end): the lifter makes the index a nested
   select.  The descriptor cannot bound such an index (no <name>_gradcheck
   yet), so the gradient is checked here against central differences of
   L = sum c[i] y[i].  */

#include <math.h>
#include <stdio.h>

__attribute__ ((differentiable))
void
reflect (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -1; k <= 1; k++)
        {
          int j = i + k;
          if (j < 0)
            j = -j;
          if (j >= n)
            j = 2 * n - 2 - j;
          s += w[k + 1] * x[j];
        }
      y[i] = s * s;
    }
}

void reflect_grad (int, const double *, const double *, double *, double *,
                   double *, double *);

static double
loss (int n, const double *x, const double *w, const double *c, double *y)
{
  double l = 0;
  reflect (n, x, w, y);
  for (int i = 0; i < n; i++)
    l += c[i] * y[i];
  return l;
}

int
main (void)
{
  enum { N = 6 };
  int n = N, bad = 0;
  double x[N], w[3], y[N], c[N], dx[N], dw[3];
  for (int i = 0; i < N; i++)
    {
      x[i] = sin (i + 1.0);
      c[i] = cos (2.0 * i);
      dx[i] = 0.25 * i; /* the gradient adds to what is there */
    }
  for (int i = 0; i < 3; i++)
    {
      w[i] = 0.3 * i - 0.2;
      dw[i] = -0.5;
    }
  reflect (n, x, w, y);
  reflect_grad (n, x, w, y, dx, dw, c);
  for (int a = 0; a < N + 3; a++)
    {
      double *p = a < N ? &x[a] : &w[a - N];
      double g = a < N ? dx[a] - 0.25 * a : dw[a - N] + 0.5;
      double h = 1e-6, o = *p;
      *p = o + h;
      double lp = loss (n, x, w, c, y);
      *p = o - h;
      double lm = loss (n, x, w, c, y);
      *p = o;
      double fd = (lp - lm) / (2 * h);
      if (fabs (fd - g) > 1e-6 * (1 + fabs (fd)))
        {
          printf ("FAIL component %d: gradient %.12g, central difference "
                  "%.12g\n", a, g, fd);
          bad++;
        }
    }
  return bad != 0;
}
