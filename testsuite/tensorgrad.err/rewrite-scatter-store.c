/* { dg-do compile } */
/* How to rewrite (README): a store through an index array.  Rows put
   back in their original order after a sort, y[perm[i]] = ..., perm a
   permutation.  Refused at the store: where an index repeats, the last
   store wins.  The rewrites, the store made a sum into zeroed rows or a
   gather through the inverse permutation, are
   tensorgrad.exec/rewrite-scatter-store.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
unsort (int n, int d, const int *perm, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < d; k++)
      y[perm[i] * d + k] = tanh (x[i * d + k]); /* { dg-error "'y' is stored through an index array, whose indices may repeat; not supported" } */
  /* { dg-message "where an index repeats, the last store wins and the gradient would be wrong; accumulate with \\+= instead" "" { target *-*-* } .-1 } */
}
