/* { dg-do compile } */
/* Two scalars carried by the outer loop and updated from each other in
   an inner one, read after it: a recurrence along the inner loop of
   each step through two statements.  The step runs as a block whose
   statements each run their loop to its end before the next, so the
   first would read the second's values of the step before; refused,
   naming both (at the store after the loop, where the lifter puts the
   carried scalar's statement).  One scalar updated from itself is
   accepted (exec/block-own-recurrence-1.c).  */

__attribute__ ((differentiable))
void
grow2 (int m, int n, const double *x, double *y)
{
  double s = 1, u = 0;
  for (int j = 0; j < m; j++)
    {
      for (int i = 0; i < n; i++)
	{
	  s += x[j * n + i] * u;
	  u = 0.5 * u + s;
	}
      y[j] = s; /* { dg-error "'s' is updated in an inner loop from 'u', which another statement of that loop updates in other iterations; not supported yet" } */
      /* { dg-message "the gradient runs each statement of this loop through all its iterations before the next statement; a recurrence through several statements of an inner loop of a step is not supported yet" "" { target *-*-* } .-1 } */
    }
}

/* Reset in every step, the same recurrence is accepted.  */
__attribute__ ((differentiable))
void
grow2_rows (int m, int n, const double *x, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 1, u = 0;
      for (int i = 0; i < n; i++)
	{
	  s += x[j * n + i] * u;
	  u = 0.5 * u + s;
	}
      y[j] = s;
    }
}
