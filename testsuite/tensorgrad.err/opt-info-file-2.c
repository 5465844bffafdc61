/* { dg-do compile } */
/* { dg-options "-fopt-info-missed=opt-info-file-2.opt-info" } */
/* -fopt-info-missed=FILE: the file holds the missed remark of a refused
   kernel and neither the optimized remark nor the notes of an accepted
   one.  */

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable))
void
twice_written (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
  for (int i = 0; i < n / 2; i++)
    y[i] = 2 * y[i + 1]; /* { dg-error "'y' is written by more than one loop nest" } */
}

/* { dg-final { scan-tensorgrad-file opt-info-file-2.opt-info "opt-info-file-2.c:17:1: missed: gradient 'twice_written_grad' not synthesized: 'y' is written by more than one loop nest" } } */
/* { dg-final { scan-tensorgrad-file-not opt-info-file-2.opt-info "synthesized gradient|tensorgrad:" } } */
