/* { dg-do compile } */
/* { dg-options "-fopt-info-all=opt-info-file-1.opt-info" } */
/* -fopt-info-all=FILE writes tensorgrad's remarks of every kind to FILE
   (beside GCC's own), and none to the compiler's output.  */

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

/* { dg-final { scan-tensorgrad-file opt-info-file-1.opt-info "opt-info-file-1.c:10:1: optimized: synthesized gradient 'act_grad': 1 loop nest, 1 fused, 1 reused, 0 bytes of temporaries" } } */
/* { dg-final { scan-tensorgrad-file opt-info-file-1.opt-info "opt-info-file-1.c:10:1: note: tensorgrad: fuse: t into its 1 reader" } } */
