/* { dg-do compile } */
/* A later loop of a row that reads the next row's scan, which the source
   writes after it: still refused (scan-seed-read-1.c is the accepted
   read of the row's own seed).  */

__attribute__ ((differentiable))
void
next_row (int R, int n, const double *x, double *y, double *z)
{
  for (int r = 0; r < R; r++)
    {
      y[r * n] = x[r * n];
      for (int j = 1; j < n; j++)
        y[r * n + j] = y[r * n + j - 1] + x[r * n + j];
      for (int j = 0; j < n; j++)
        z[r * n + j] = r + 1 < R ? y[r * n + n + j] : 0; /* { dg-error "'y' is read here where an earlier loop of the same nest may not have written it yet; not supported yet" } */
    }
}
/* { dg-message "the gradient runs each inner loop of the nest to its end before the next" "" { target *-*-* } 16 } */
