/* { dg-do compile } */
/* An accumulator reused across the iterations of an outer loop, never
   reset, its running value stored after each row: the gradient would
   need each row's value, which the next row overwrites.  The error is at
   the store of the running value, with a note saying how to write it.  */

__attribute__ ((differentiable))
void
running (int n, int m, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	s += x[i * m + j];
      y[i] = s; /* { dg-error "loop-carried scalar .s. \\(a reduction or recurrence\\) is not supported yet" } */
      /* { dg-message "keep each iteration's value in an array element \\(s\\\[i\\\] = s\\\[i - 1\\\] \\+ ...\\), or reset it at the start of every iteration" "" { target *-*-* } .-1 } */
    }
}
