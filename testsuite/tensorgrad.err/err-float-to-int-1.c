/* { dg-do compile } */
/* A floating-point value converted to an integer is refused at the
   conversion, as what it is: not as an index that is not affine (the
   message every such conversion got, an index or not), and not at the
   statement that uses the integer later.  (DejaGnu takes the column
   of one error for the line of another: no line here is a column.)  */

__attribute__ ((differentiable))
void
quantized (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      long k = (long) (4 * x[i]); /* { dg-error "conversion to an integer of a floating-point value cannot be differentiated" } */
      /* { dg-message "to round a value, use .trunc., .floor., .ceil. or .round., which keep it floating \\(derivative 0\\); an index, a loop bound or a switch cannot be computed from floating-point values" "" { target *-*-* } .-1 } */
      y[i] = x[i] * k;
    }
}

__attribute__ ((differentiable))
void
by_level (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    switch ((int) x[i]) /* { dg-error "conversion to an integer of a floating-point value cannot be differentiated" } */
      {
      case 0:
	y[i] = x[i];
	break;
      case 1:
	y[i] = 2 * x[i];
	break;
      case 2:
	y[i] = 3 * x[i];
	break;
      default:
	y[i] = 0;
      }
}

__attribute__ ((differentiable))
void
lookup (int n, const double *x, const double *table, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = table[(int) x[i]] * x[i]; /* { dg-error "conversion to an integer of a floating-point value cannot be differentiated" } */
}
