/* { dg-do compile } */
/* A second nest that overwrites part of what the first wrote (m elements
   of n): the gradient would need the values it overwrote and no array of
   its own can hold them all, so the error points at the second write.
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
    y[i] = 2.0 * y[i]; /* { dg-error ".y. is written by more than one loop nest; not supported yet" } */
  /* { dg-message "this statement rewrites part of what the earlier loop wrote from values of 'y'; such a rewrite gets a version only when it reads other arrays" "" { target *-*-* } .-1 } */
}
