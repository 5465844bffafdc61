/* { dg-do compile } */
/* A loop body unrolled by hand into several stores of one array, each a
   statement of the one loop nest: refused (where the stores are one
   statement in a loop of its own over the tile, as in
   tensorgrad.exec/tiled-matmul-1.c, the kernel is differentiated), with
   a note on how to write it.  The counter stepped by 2 and its value
   after the loop are fine.  */

__attribute__ ((differentiable))
void
scale2 (int n, const double *x, double *y)
{
  int i;
  for (i = 0; i + 1 < n; i += 2)
    {
      y[i] = 2 * x[i];
      y[i + 1] = 2 * x[i + 1]; /* { dg-error "'y' is written by more than one statement of a loop nest; not supported yet" } */
      /* { dg-message "write the elements one iteration stores in a loop of their own" "" { target *-*-* } .-1 } */
    }
  if (i < n)
    y[i] = 2 * x[i];
}
