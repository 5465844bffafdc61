/* { dg-do compile } */
/* The second inner loop of an outer loop reads the row the first inner
   loop writes in the next iteration of the outer loop: in the source it
   reads that row before it is written; the gradient, which runs each
   inner loop to its end before the next, would read it after.  Refused
   at the read (the gradient was silently wrong before).  The same nest
   reading only rows written so far is accepted (sibling-loops-1.c).  */

__attribute__ ((differentiable))
void
ahead (int T, int n, const double *x, double *a, double *y)
{
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
	a[t * n + i] = x[t * n + i] * 2;
      for (int i = 0; i < n - 1; i++)
	y[t * n + i] = a[(t + 1) * n + i]; /* { dg-error ".a. is read here where an earlier loop of the same nest may not have written it yet; not supported yet" } */
      /* { dg-message "the gradient runs each inner loop of the nest to its end before the next" "" { target *-*-* } .-1 } */
    }
}
