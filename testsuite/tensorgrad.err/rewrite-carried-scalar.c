/* { dg-do compile } */
/* How to rewrite (README): a scalar carried by an outer loop and read in
   an inner one.  Rows scaled by a gain that decays from row to row and
   picks up the row's first input.  Refused at the read, with a note.
   The rewrite, the gain of every row in an array, is
   tensorgrad.exec/rewrite-carried-scalar.c.  */

__attribute__ ((differentiable))
void
decay (int n, int m, const double *x, double *y)
{
  double s = 1;
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
        y[i * m + j] = s * x[i * m + j]; /* { dg-error "loop-carried scalar 's' \\(a reduction or recurrence\\) is not supported yet" } */
      /* { dg-message "the gradient would need its value in every iteration, which the next one overwrites; keep each iteration's value in an array element \\(s\\\[i\\\] = s\\\[i - 1\\\] \\+ ...\\), or reset it at the start of every iteration" "" { target *-*-* } .-1 } */
      s = 0.5 * s + x[i * m];
    }
}
