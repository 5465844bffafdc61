/* { dg-do compile } */
/* A scalar updated from its own value (no reduction: s += x * s reads s
   in its term, p = p * x + c multiplies it) in a loop nested in another.
   Each is refused at the update, naming the actual limit; neither is
   told to write 's += e', which the first already wrote.  */

__attribute__ ((differentiable))
double
compound (int m, int n, const double *x)
{
  double s = 1;
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      s += x[j * n + i] * s; /* { dg-error "loop-carried scalar 's' is updated from its own value in an inner loop of a loop that carries it too; not supported yet" } */
  /* { dg-message "the gradient keeps such a value for every iteration of one loop only; reset 's' at the start of every iteration of the outer loop, or keep each iteration's value in an array element" "" { target *-*-* } .-1 } */
  return s;
}

/* Horner's rule for every x[j], summed: the polynomial is reset in every
   iteration of the sum's loop.  */
__attribute__ ((differentiable))
double
poly_loss (int m, int n, const double *c, const double *x)
{
  double loss = 0;
  for (int j = 0; j < m; j++)
    {
      double p = 1;
      for (int i = 0; i < n; i++)
	p = p * x[j] + c[i]; /* { dg-error "loop-carried scalar 'p' is updated from its own value in a loop inside the loop of a reduction; not supported yet" } */
      /* { dg-message "store 'p' of every iteration of the outer loop in an array element, and sum those in a loop of its own" "" { target *-*-* } .-1 } */
      loss += p * p;
    }
  return loss;
}

/* As the note says: accepted.  */
__attribute__ ((differentiable))
double
poly_loss_rows (int m, int n, const double *c, const double *x)
{
  double pv[m];
  for (int j = 0; j < m; j++)
    {
      double p = 1;
      for (int i = 0; i < n; i++)
	p = p * x[j] + c[i];
      pv[j] = p;
    }
  double loss = 0;
  for (int j = 0; j < m; j++)
    loss += pv[j] * pv[j];
  return loss;
}
