/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=walks-shared-1.gen.c" } */
/* Issue 12: each level uses the one below twice, so the expression is a
   tree of 2^12 loads but a DAG of a few dozen nodes.  Every walk after
   lifting (derivatives, rewrites, emission, the dump, dump-c) must visit
   each distinct node a bounded number of times, not once per path: the
   counts the dump prints are at most 8 times the distinct nodes.  The
   dump binds the shared levels to lets instead of printing the tree.
   (Exponential walks made this file take minutes and gigabytes.)  */

#include <math.h>

#define B1 (x[i] * 0.5 + x[i] * 0.25)
#define B2 (B1 * 0.5 + B1 * 0.25)
#define B3 (B2 * 0.5 + B2 * 0.25)
#define B4 (B3 * 0.5 + B3 * 0.25)
#define B5 (B4 * 0.5 + B4 * 0.25)
#define B6 (B5 * 0.5 + B5 * 0.25)
#define B7 (B6 * 0.5 + B6 * 0.25)
#define B8 (B7 * 0.5 + B7 * 0.25)
#define B9 (B8 * 0.5 + B8 * 0.25)
#define B10 (B9 * 0.5 + B9 * 0.25)
#define B11 (B10 * 0.5 + B10 * 0.25)
#define B12 (B11 * 0.5 + B11 * 0.25)

__attribute__ ((differentiable))
void
shared12 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sin (B12);
}

/* { dg-final { scan-tensorgrad-walks 8 } } */
/* { dg-final { scan-tensorgrad-dump "let %\[0-9\]+ = " } } */
