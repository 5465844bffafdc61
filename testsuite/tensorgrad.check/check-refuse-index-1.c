/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* The check fills an index array with distinct values from 0; a kernel
   that needs them at least 1 reads x[-1] at those values.  It is not
   checked, and a note says why.  */

__attribute__ ((differentiable))
void
gather_prev (int n, const int *idx, const double *x, double *y) /* { dg-message "gradient of .gather_prev. not checked: .x. is accessed at index -1 at n=3 and the chosen index values" } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i] - 1];
}
