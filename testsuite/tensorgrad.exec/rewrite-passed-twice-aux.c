/* The second translation unit of rewrite-passed-twice.c: mul and its
   gradient, written by hand (the ABI's signature), as a library of
   another file would have them.  */

void
mul (int n, const double *a, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a[i] * b[i];
}

void
mul_grad (int n, const double *a, const double *b, double *y, double *d_a,
          double *d_b, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      if (d_a)
        d_a[i] += b[i] * d_y[i];
      if (d_b)
        d_b[i] += a[i] * d_y[i];
    }
}
