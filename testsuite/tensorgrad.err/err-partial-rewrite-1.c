/* { dg-do compile } */
/* A part of what a loop wrote rewritten by a later loop of its own: a
   range, not one element per iteration of the loops the two share, so
   no version (exec/partial-overwrite-1.c has the single elements, which
   get one).  In a nest of its own (the first m of n elements, m unknown
   against n), and inside the loop over the rows after memcpy of the row
   (two of its four elements, by a loop): the error says which, at the
   rewrite, and the note what gets a version.  */

#include <string.h>

__attribute__ ((differentiable))
void
head_range (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 3;
  for (int i = 0; i < m; i++)
    y[i] = x[i]; /* { dg-error "'y' is written by more than one loop nest; not supported yet" } */
  /* { dg-message "a later store gets a version where it rewrites every element the earlier loop wrote, or one element of it per iteration of the loops they share; store each element once, the test inside" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
row_range (int n, const float *x, float *y)
{
  for (int r = 0; r < n; r++)
    {
      memcpy (y + 4 * r, x + 4 * r, 4 * sizeof *y);
      for (int k = 0; k < 2; k++)
        y[4 * r + k] = x[4 * r + k] * x[4 * r + k]; /* { dg-error "'y' is written here and by an earlier loop of the same nest, in elements that may meet; not supported yet" } */
      /* { dg-message "a later store gets a version where it rewrites every element the earlier loop wrote, or one element of it per iteration of the loops they share; store each element once, the test inside" "" { target *-*-* } .-1 } */
    }
}
