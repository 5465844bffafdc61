/* { dg-do compile } */
/* A second nest that overwrites part of what the first wrote (m elements
   of n): the gradient would need the values it overwrote and no array of
   its own can hold them all, so the error points at the second write.
   Whether m <= n is not known: the nests may write the same elements.
   (A nest that overwrites every element the first wrote gets a version
   of its own: overwrite-nests-1.c.  Two stores to one element in the same
   loop, the last winning, are not this error.)  */

__attribute__ ((differentiable))
void
overwrite (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
  for (int i = 0; i < m; i++)
    y[i] = 2.0 * y[i]; /* { dg-error ".y. is written by more than one loop nest, which may write the same elements; not supported yet" } */
  /* { dg-message "the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
}
