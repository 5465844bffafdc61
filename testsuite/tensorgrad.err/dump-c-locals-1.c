/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=dump-c-locals-1.gen.c -fdump-tree-gimple" } */
/* Issue 13: dump-c prints the locals the injected GIMPLE computes.  Both
   back ends translate one lowering (lib/back/lower.c), which names each
   shared subexpression s<N> and each accumulator acc<N>: the same names
   must be declared in the dump-c file and in the gradient's GIMPLE, as
   many as the lowering reports.  The kernel has them in every kind of
   scope: reduction terms, a select's arms holding reductions, a guard, a
   fused stage's shared values and its per-statement values.  */

#include <math.h>

__attribute__ ((differentiable))
void
locals (int n, int m, const double *x, const double *w, double *y,
        double *z)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0, t = 0;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * w[j];
      for (int j = 0; j < m; j++)
        t += exp (x[i * m + j]) * x[i * m + j];
      y[i] = s > 0 ? tanh (s) * t : sin (t) * t;
      z[i] = tanh (s) * tanh (s) + t;
    }
}

/* { dg-final { scan-tensorgrad-dump "lower: \[1-9\]\[0-9\]* shared locals, \[1-9\]\[0-9\]* accumulators" } } */
/* { dg-final { scan-tensorgrad-locals "dump-c-locals-1.gen.c" "locals_grad" } } */
