/* demo.c -- the smallest use of tensorgrad.

   A one-layer kernel y[i] = tanh (w * x[i] + b) is marked differentiable;
   compiled with -fplugin=tensorgrad, this file also gets layer_grad.  The
   program calls it for the loss L = sum_i c[i] * y[i] and prints each
   gradient component next to a central finite-difference estimate.  It
   exits with status 1 if any relative error exceeds 1e-6.

   Build and run from the build tree: make demo.  By hand, after
   make install:

     gcc -O2 -fplugin=tensorgrad -o demo demo.c -lm && ./demo  */

#include <math.h>
#include <stdio.h>
#include <tensorgrad.h>

#define N 8

TG_DIFFERENTIABLE
void
layer (int n, double w, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (w * x[i] + b);
}

/* The gradient the plugin defines, by the ABI: every parameter, then one
   shadow per floating parameter in order (w, b, x, y).  d_w, d_b and d_x
   accumulate, so they start at zero; d_y holds dL/dy and is left as it
   is.  Writing the prototype is optional; if written, it must match.  */
void layer_grad (int n, double w, double b, const double *x, double *y,
		 double *d_w, double *d_b, double *d_x, double *d_y);

static const double c[N] = { 1.0, -0.5, 2.0, 0.75, -1.25, 0.5, 1.5, -2.0 };

/* The loss L = sum_i C[i] * y[i] for parameters W, B and inputs X.  */
static double
loss (double w, double b, const double *x)
{
  double y[N], l = 0.0;
  layer (N, w, b, x, y);
  for (int i = 0; i < N; i++)
    l += c[i] * y[i];
  return l;
}

/* Print one gradient component NAME: the synthesized value G against the
   finite-difference estimate FD.  Return 1 if they disagree.  */
static int
report (const char *name, double g, double fd)
{
  double scale = fmax (fabs (g), fabs (fd));
  double rel = scale > 0.0 ? fabs (g - fd) / scale : 0.0;
  int bad = !(rel <= 1e-6);
  printf ("%-7s %17.12f %17.12f %9.2e%s\n", name, g, fd, rel,
	  bad ? "  MISMATCH" : "");
  return bad;
}

int
main (void)
{
  const double h = 1e-5;
  double w = 0.7, b = -0.2;
  double x[N], y[N];
  double d_w = 0.0, d_b = 0.0, d_x[N] = { 0 }, d_y[N];
  int bad = 0;

  for (int i = 0; i < N; i++)
    {
      x[i] = 0.25 * i - 0.9;
      d_y[i] = c[i];
    }

  layer (N, w, b, x, y);
  layer_grad (N, w, b, x, y, &d_w, &d_b, d_x, d_y);

  printf ("L = sum_i c[i] * tanh (w * x[i] + b), n = %d\n", N);
  printf ("%-7s %17s %17s %9s\n", "", "gradient", "finite diff.", "rel. err");
  bad |= report ("dL/dw", d_w,
		 (loss (w + h, b, x) - loss (w - h, b, x)) / (2 * h));
  bad |= report ("dL/db", d_b,
		 (loss (w, b + h, x) - loss (w, b - h, x)) / (2 * h));
  for (int i = 0; i < N; i++)
    {
      char name[16];
      double xi = x[i], lp, lm;
      x[i] = xi + h;
      lp = loss (w, b, x);
      x[i] = xi - h;
      lm = loss (w, b, x);
      x[i] = xi;
      snprintf (name, sizeof name, "dL/dx%d", i);
      bad |= report (name, d_x[i], (lp - lm) / (2 * h));
    }
  puts (bad ? "FAIL: gradient and finite differences disagree"
	    : "OK: gradient matches finite differences");
  return bad;
}
