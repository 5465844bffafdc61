/* { dg-do compile } */
/* How to rewrite (README): an index that is not affine in the loop
   counters.  A lower-triangular matrix in packed storage, row i at
   i (i + 1) / 2; neighbours swapped by i ^ 1; a signal resampled at
   (int) (i * scale).  Refused at the access, the last at the cast.  The rewrites, the row
   offsets or the positions in an integer array the caller fills, and
   the pairs as a loop of their own, are tensorgrad.exec/rewrite-index.c.  */

__attribute__ ((differentiable))
void
tri_matvec (int n, const double *L, const double *v, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j <= i; j++)
        s += L[i * (i + 1) / 2 + j] * v[j]; /* { dg-error "index of 'L' is not affine in the loop counters" } */
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
swap_pairs (int n, const double *x, double *y)
{
  for (int i = 0; i < 2 * n; i++)
    y[i] = x[i ^ 1]; /* { dg-error "index of this access is not affine in the loop counters" } */
}

__attribute__ ((differentiable))
void
resample (int n, double scale, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[(int) (i * scale)]; /* { dg-error "conversion to an integer of a floating-point value cannot be differentiated" } */
}
