/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* Index arrays get distinct values, and the tensors indexed through them
   as many elements as the accesses reach: an embedding gather and a
   permutation gather are checked.  (A store through an index array is
   refused: err-scatter-store-1.c.)  */

__attribute__ ((differentiable))
void
embed (int n, int d, const int *idx, const double *table, double *y) /* { dg-message "gradient of .embed. checked at n=3, d=2: worst relative error \[0-9.e+-\]+ in .d_table." } */
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < d; j++)
      y[i * d + j] = table[idx[i] * d + j] * table[idx[i] * d + j];
}

__attribute__ ((differentiable))
void
scatter (int n, const int *perm, const double *x, double *y) /* { dg-message "gradient of .scatter. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_x." } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[perm[i]] * x[perm[i]] * x[perm[i]];
}
