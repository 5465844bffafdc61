/* dense.c -- fully connected layer, the forward the plugin differentiates.

   y[i][j] = b[j] + sum_p x[i][p] * w[p][j], row-major, float as in ML code.
   Benchmark size: n = 256 rows, k = 512 inputs, m = 512 outputs.
   Gradient (ABI): dense_grad (n, k, m, x, w, b, y, d_x, d_w, d_b, d_y).  */

__attribute__((differentiable))
void
dense (int n, int k, int m, const float *x, const float *w, const float *b,
       float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}
