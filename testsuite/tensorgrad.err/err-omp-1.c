/* { dg-do compile } */
/* { dg-options "-fopenmp" } */
/* OpenMP constructs a kernel may not use (omp.cc): each is an error at
   its directive (an atomic update at its statement), once, with a note saying what a kernel may use; so is
   a clause that changes what the serial loops mean, and a parallel
   region that runs statements other than loops on every thread.  The
   kernel gets no gradient, and no other error follows.  */

__attribute__ ((differentiable))
double
sum_critical (int n, const double *x)
{
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp critical /* { dg-error "OpenMP 'critical' in a differentiable function is not supported" } */
      s += x[i];
    }
  return s;
}
/* { dg-message "a kernel may use 'parallel', 'for' and 'simd' loops; its gradient follows the serial loops" "" { target *-*-* } 17 } */

__attribute__ ((differentiable))
double
sum_atomic (int n, const double *x)
{
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
#pragma omp atomic
    s += x[i] * x[i]; /* { dg-error "OpenMP 'atomic' in a differentiable function is not supported" } */
  return s;
}

__attribute__ ((differentiable))
void
two_phases (int n, const double *x, double *y, double *z)
{
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      y[i] = x[i] * x[i];
#pragma omp barrier /* { dg-error "OpenMP 'barrier' in a differentiable function is not supported" } */
#pragma omp for
    for (int i = 0; i < n; i++)
      z[i] = y[i] + x[i];
  }
}

__attribute__ ((differentiable))
void
tasks (int n, const double *x, double *y)
{
#pragma omp parallel
#pragma omp single /* { dg-error "OpenMP 'single' in a differentiable function is not supported" } */
  for (int i = 0; i < n; i++)
    {
#pragma omp task
      y[i] = x[i] * 2;
    }
}

__attribute__ ((differentiable))
void
ordered_rows (int n, const double *x, double *y)
{
#pragma omp parallel for ordered /* { dg-error "OpenMP clause 'ordered' in a differentiable function is not supported" } */
  for (int i = 0; i < n; i++)
    {
#pragma omp ordered /* { dg-error "OpenMP 'ordered' in a differentiable function is not supported" } */
      y[i] = x[i] + 1;
    }
}

__attribute__ ((differentiable))
void
every_thread (int n, const double *x, double *y)
{
#pragma omp parallel /* { dg-error "an OpenMP 'parallel' region of a differentiable function runs statements other than loops" } */
  {
    double scale = 2;
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = scale * x[i];
    y[0] += 1;
  }
}
/* { dg-message "every thread runs such a statement; put the loops under '#pragma omp parallel for' and the rest outside" "" { target *-*-* } 81 } */

