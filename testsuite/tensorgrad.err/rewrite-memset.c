/* { dg-do compile } */
/* How to rewrite (README): memset and memcpy that are no stores of
   whole floating elements.  A clear by bytes, not elements; a fill with
   byte 1 meant as the value 1; a copy of floats into doubles; a shift
   in place; and a use of the pointer memset returns.  Refused at each
   call (the last also where the pointer is used).  The rewrites, the size in bytes, loops that store values, a
   shifted read, and the array itself, are
   tensorgrad.exec/rewrite-memset.c.  */

#include <string.h>

__attribute__ ((differentiable))
void
clear_add (int n, const float *x, float *y)
{
  memset (y, 0, n); /* { dg-error "'memset' of 'y' does not cover whole elements of 'float'" } */
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

__attribute__ ((differentiable))
void
ones_add (int n, const float *x, float *y)
{
  memset (y, 1, n * sizeof (float)); /* { dg-error "'memset' of 'y' sets bytes that are not zero; only zero is a floating value" } */
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

__attribute__ ((differentiable))
void
widen (int n, const float *x, double *y)
{
  memcpy (y, x, n * sizeof (double)); /* { dg-error "'memcpy' copies 'x' into 'y', which has another element type" } */
  for (int i = 0; i < n; i++)
    y[i] *= 2;
}

__attribute__ ((differentiable))
void
delay (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
  memmove (y + 1, y, (n - 1) * sizeof (double)); /* { dg-error "'memmove' copies within 'y'; not supported" } */
  y[0] = 0;
}

__attribute__ ((differentiable))
void
cleared (int n, const double *x, double *y)
{
  double *p = memset (y, 0, n * sizeof *y); /* { dg-error "the value 'memset' returns is used; not supported" } */
  for (int i = 0; i < n; i++)
    p[i] += x[i]; /* { dg-error "index of this access is not affine in the loop counters" } */
}
