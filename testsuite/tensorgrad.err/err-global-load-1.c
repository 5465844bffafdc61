/* { dg-do compile } */
/* A read of a global array inside a kernel: its gradient would have
   nowhere to go; the note, at the array, says to pass it in.  */

double table[64]; /* { dg-message "pass .table. to the kernel as a parameter, so that its gradient has somewhere to go" } */

__attribute__ ((differentiable))
void
lookup_scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * table[i]; /* { dg-error "global array .table., which the kernel reads, cannot be differentiated" } */
}
