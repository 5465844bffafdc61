/* { dg-do compile } */
/* { dg-options "-fopt-info-note=opt-info-note-1.opt-info" } */
/* -fopt-info-note: the decisions the passes noted, as the dump lists
   them, are notes at the kernel, each headed "tensorgrad:"; a kernel
   whose gradient the user wrote gets a note saying so.  No optimized
   remark: it is not asked for.  (In a file: GCC's own passes write
   notes without a location at -O2, which dg-message cannot place.)  */

#include <math.h>

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y)
{
  double t[64];
  for (int i = 0; i < n; i++)
    t[i] = exp (x[i]);
  for (int i = 0; i < n; i++)
    y[i] = tanh (t[i]);
}

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

void
twice_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) x;
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += 2 * d_y[i];
}

/* { dg-final { scan-tensorgrad-file opt-info-note-1.opt-info "opt-info-note-1.c:13:1: note: tensorgrad: fuse: t into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-file opt-info-note-1.opt-info "opt-info-note-1.c:13:1: note: tensorgrad: reuse: tanh \\(exp \\(x.i.\\)\\) is y.i." } } */
/* { dg-final { scan-tensorgrad-file opt-info-note-1.opt-info "opt-info-note-1.c:24:1: note: tensorgrad: gradient 'twice_grad' written by hand, not synthesized" } } */
/* { dg-final { scan-tensorgrad-file-not opt-info-note-1.opt-info "optimized: synthesized" } } */
