/* { dg-do compile } */
/* { dg-options "-fopt-info-missed" } */
/* -fopt-info-missed: a kernel refused by a pass, and one refused while
   its body is lifted, each get a missed-optimization remark at the
   kernel beside the error (the first with the pass's reason); the kernel
   that is accepted gets no remark of this kind (its "optimized" one is
   not asked for).  */

__attribute__ ((differentiable))
void
twice_written (int n, const double *x, double *y) /* { dg-message "missed: gradient 'twice_written_grad' not synthesized: 'y' is written by more than one loop nest; not supported yet" } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
  for (int i = 0; i < n / 2; i++)
    y[i] = 2 * y[i + 1]; /* { dg-error "'y' is written by more than one loop nest" } */
}

__attribute__ ((differentiable))
void
leaves_early (int n, const double *x, double *y) /* { dg-message "missed: gradient 'leaves_early_grad' not synthesized: its body cannot be differentiated \\(the errors above say why\\)" } */
{
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 3)
        break; /* { dg-error "'break' leaves the loop early" } */
      y[i] = x[i];
    }
}

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}
