/* { dg-do compile } */
/* A scalar carried by the outer loop and updated from itself in an inner
   one, read after the inner loop: a recurrence along the inner loop of
   each step.  The gradient ran the steps backwards but the inner loop
   forwards, a wrong gradient; refused now, at the update, naming the
   scalar.  */

__attribute__ ((differentiable))
void
grow (int m, int n, const double *x, double *y)
{
  double s = 1;
  for (int j = 0; j < m; j++)
    {
      for (int i = 0; i < n; i++)
	s += x[j * n + i] * s; /* { dg-error "'s' is updated in an inner loop from its values of that loop's earlier iterations, and carried by the loop around it; not supported yet" } */
      /* { dg-message "reset 's' at the start of every iteration of the outer loop, or keep each iteration's value in an array element" "" { target *-*-* } .-1 } */
      y[j] = s;
    }
}

/* Reset in every step, the same inner recurrence is accepted.  */
__attribute__ ((differentiable))
void
grow_rows (int m, int n, const double *x, double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 1;
      for (int i = 0; i < n; i++)
	s += x[j * n + i] * s;
      y[j] = s;
    }
}
