/* { dg-do compile } */
/* A single element of what a loop wrote rewritten from the array's own
   values (y[0] from y[0] and y[1], a row's first entry from its second):
   the rewrite would read the version it splits off at elements other
   than its own, which version.c does not do.  Refused at the rewrite,
   the note naming the limit.  */

__attribute__ ((differentiable))
void
edge_from_neighbour (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 3;
  y[0] = y[0] * y[1]; /* { dg-error "'y' is written by more than one loop nest; not supported yet" } */
  /* { dg-message "this statement rewrites part of what the earlier loop wrote from other elements of 'y'; such a rewrite gets a version only when it reads no element of 'y' but the one it writes" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
row_head (int B, int V, const float *x, float *y)
{
  for (int b = 0; b < B; b++)
    {
      for (int j = 0; j < V; j++)
        y[b * V + j] = x[b * V + j] * x[b * V + j];
      y[b * V] = y[b * V + 1]; /* { dg-error "'y' is written here and by an earlier loop of the same nest, in elements that may meet; not supported yet" } */
      /* { dg-message "this statement rewrites part of what the earlier loop wrote from other elements of 'y'; such a rewrite gets a version only when it reads no element of 'y' but the one it writes" "" { target *-*-* } .-1 } */
    }
}
