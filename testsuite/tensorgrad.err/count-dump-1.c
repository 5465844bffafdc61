/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A masked mean: the count is an integer sum over the loop in the lifted
   program, converted where the kernel converts it; the gradient reads it
   and gives x no term from it.  */

__attribute__ ((differentiable))
double
masked_mean (int n, const int *mask, const double *x)
{
  double s = 0;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      {
        s += x[i];
        cnt++;
      }
  return s / cnt;
}

/* { dg-final { scan-tensorgrad-dump "return\\\[0\\\] = sum \\(i < n; 0; \[^\n\]*x\\\[i\\\] : 0\\) / \\(double\\) sum \\(i < n; 0; 0 != \\(long\\) mask\\\[\[^\n\]*\\\] \\? 1 : 0\\)" } } */
/* { dg-final { scan-tensorgrad-backward "d_x\\\[i\\\] \\+= " } } */
