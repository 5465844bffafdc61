/* { dg-do compile } */
/* The bits of a floating array read as integers (a sign test done by
   hand through a cast pointer) have no derivative: refused at the read,
   as a float array read as another floating type is
   (rewrite-pointer-type.c).  It was lifted as a conversion of the value,
   (long) x[i], and emission crashed (an ICE in fold_convert_loc).  An
   integer array read through another integer type stays accepted.  */

__attribute__ ((differentiable))
void
abs_bits (int n, const double *x, double *y)
{
  const long *b = (const long *) x;
  for (int i = 0; i < n; i++)
    y[i] = b[i] < 0 ? -x[i] : x[i]; /* { dg-error "'x' is accessed as 'long int', not as its element type" } */
}

__attribute__ ((differentiable))
void
abs_bits_f (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = ((const int *) x)[i] < 0 ? -x[i] : x[i]; /* { dg-error "'x' is accessed as 'int', not as its element type" } */
}

__attribute__ ((differentiable))
void
masked (int n, const int *mask, const double *x, double *y)
{
  const unsigned *m = (const unsigned *) mask;
  for (int i = 0; i < n; i++)
    y[i] = m[i] ? x[i] : 0.0;
}
