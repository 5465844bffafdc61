/* { dg-do compile } */
/* How to rewrite (README): a kernel that reads variables of static
   storage that may change.  A layer whose weights and gain are globals,
   a permutation in a global integer array, and a function's static
   weights.  Refused at the first such read of each kernel, with a note
   at the variable.  The rewrite, each passed as a parameter, is
   tensorgrad.exec/rewrite-globals.c.  */

#include <math.h>

double W[3 * 2]; /* { dg-message "pass 'W' to the kernel as a parameter, so that its gradient has somewhere to go" } */
double gain = 0.5;
int perm[3] = { 2, 0, 1 }; /* { dg-message "pass 'perm' to the kernel as a parameter, so that its gradient has somewhere to go" } */

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++)
      {
        double s = 0;
        for (int k = 0; k < 3; k++)
          s += x[i * 3 + k] * W[k * 2 + j]; /* { dg-error "global array 'W', which the kernel reads, cannot be differentiated" } */
        y[i * 2 + j] = tanh (gain * s);
      }
}

__attribute__ ((differentiable))
void
permute (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      y[i * 3 + k] = x[i * 3 + perm[k]]; /* { dg-error "global array 'perm', which the kernel reads, cannot be differentiated" } */
}

__attribute__ ((differentiable))
void
smooth (int n, const double *x, double *y)
{
  static double w[3] = { 0.25, 0.5, 0.25 }; /* { dg-message "pass 'w' to the kernel as a parameter, so that its gradient has somewhere to go" } */
  for (int i = 0; i < n - 2; i++)
    y[i] = w[0] * x[i] + w[1] * x[i + 1] + w[2] * x[i + 2]; /* { dg-error "static array 'w', which the kernel reads, cannot be differentiated" } */
}
