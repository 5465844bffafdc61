/* { dg-do compile } */
/* memset and memcpy that are no stores of whole floating elements, and a
   copy within one array (exec/memset-1.c has the accepted forms).  */

#include <string.h>

__attribute__ ((differentiable))
void
set_ones (int n, const float *x, float *y)
{
  memset (y, 1, n * sizeof (float)); /* { dg-error ".memset. of .y. sets bytes that are not zero; only zero is a floating value" } */
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

__attribute__ ((differentiable))
void
set_bytes (int n, const float *x, float *y)
{
  memset (y, 0, n); /* { dg-error ".memset. of .y. does not cover whole elements of .float." } */
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

__attribute__ ((differentiable))
void
copy_mixed (int n, const float *x, double *y)
{
  memcpy (y, x, n * sizeof (double)); /* { dg-error ".memcpy. copies .x. into .y., which has another element type" } */
  for (int i = 0; i < n; i++)
    y[i] *= 2;
}

__attribute__ ((differentiable))
void
shift (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
  memmove (y + 1, y, (n - 1) * sizeof (double)); /* { dg-error ".memmove. copies within .y.; not supported" } */
}
