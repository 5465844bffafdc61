/* { dg-do compile } */
/* A scalar carried by an outer loop and read inside an inner one: the
   gradient would need its value in every iteration of the outer loop,
   which the next overwrites, and it is stored per iteration only when
   read in the loop that carries it (carried-scalar-1.c).  The error is
   at the read, with a note saying how to write it.  */

__attribute__ ((differentiable))
void
decay (int n, int m, const double *x, double *y)
{
  double s = 1;
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	y[i * m + j] = s * x[i * m + j]; /* { dg-error "loop-carried scalar .s. \\(a reduction or recurrence\\) is not supported yet" } */
      /* { dg-message "keep each iteration's value in an array element \\(s\\\[i\\\] = s\\\[i - 1\\\] \\+ ...\\), or reset it at the start of every iteration" "" { target *-*-* } .-1 } */
      s = 0.5 * s + x[i * m];
    }
}
