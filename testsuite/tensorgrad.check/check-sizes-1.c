/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-sizes=mm:K=6,m=1 -fplugin-arg-tensorgrad-check-sizes=other:n=2" } */
/* check-sizes=NAME:n=4,m=3 sets the check's values of a kernel's integer
   parameters; the others keep their defaults (n is the second integer
   parameter: 2), and entries for other kernels are ignored.  */

__attribute__ ((differentiable))
void
mm (int m, int n, int K, const double *A, const double *B, double *C) /* { dg-message "gradient of .mm. checked at m=1, n=2, K=6: worst relative error \[0-9.e+-\]+ in .d_A., \[0-9.e+-\]+ in .d_B." } */
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double s = 0;
	for (int k = 0; k < K; k++)
	  s += A[i * K + k] * B[k * n + j];
	C[i * n + j] = s;
      }
}
