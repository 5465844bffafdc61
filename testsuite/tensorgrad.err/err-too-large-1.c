/* { dg-do compile } */
/* A chain of twenty guarded steps: the adjoint of each step's input is a
   sum of two guarded terms, which the next step's rule distributes
   over, so the gradient doubles with every step (2^20 terms).  It is
   refused with an error at the kernel as soon as it passes the limit on
   expression nodes, not compiled for minutes.  */

__attribute__ ((differentiable))
void
steps (int n, const double *x, double *y) /* { dg-error "gradient of 'steps' too large: more than 200000 expression nodes" } */
{
  for (int i = 0; i < n; i++)
    {
      double b = x[i];
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      y[i] = b;
    }
}
