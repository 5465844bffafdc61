/* { dg-do compile } */
/* { dg-options "-O2 -fopt-info-vec-optimized" } */
/* The purpose of lib/passes/lanes.c: at -O2 GCC 12 vectorizes no loop
   that needs an epilogue and no float sum into one element; the
   gradient's loops in lanes of 8 are vectorized all the same.  The
   forward's float sum is not (no -ffast-math), so each remark below
   is the gradient's: d_x[j] += d1 * w[j] and d_w[j] += d1 * x[j] over
   n, and the dot product it computes again, in 8 partial sums.  The
   remarks carry the location of the lifted statement, the return (and
   the kernel's end's).  */

__attribute__ ((differentiable))
float
dot2 (int n, const float *x, const float *w)
{
  float s = 0;
  for (int j = 0; j < n; j++)
    s += x[j] * w[j];
  return s * s; /* { dg-message "optimized: loop vectorized" } */
/* { dg-message "optimized: basic block part vectorized" "" { target *-*-* } .-1 } */
} /* { dg-message "optimized: basic block part vectorized" } */
