/* { dg-do run } */
/* A kernel with OpenMP directives called by other kernels of the file,
   one defined before it (with a prototype) and one after: its serial
   twin's program is inlined into theirs.  Every gradient checked
   against central differences; the callers' forwards run the callee's
   region on TG_THREADS threads.  */

#include <math.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable)) void layer (int n, const double *x,
                                             double *y);

__attribute__ ((differentiable))
void
before (int n, const double *x, double *z)
{
  double t[n];
  layer (n, x, t);
  for (int i = 0; i < n; i++)
    z[i] = t[i] * 3 + x[i];
}

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]) * x[i];
}

__attribute__ ((differentiable))
double
after (int n, const double *x)
{
  double t[n];
  layer (n, x, t);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int n = 11;
  double *x = tg_alloc (n), *z = tg_alloc (n);
  tg_fill (x, n, 1, -1.5, 1.5);
  TG_GRADCHECK (layer, &n, x, z);
  TG_GRADCHECK (before, &n, x, z);
  TG_GRADCHECK (after, &n, x);
  return tg_exit ();
}
