/* { dg-do compile } */
/* An unknown two-argument function called in the inner loop of a 2-D
   nest, its result stored in a local first: the error points at the
   call, not at the store.  */

extern float blend (float, float);

__attribute__ ((differentiable))
void
blend_rows (int n, int m, const float *x, const float *b, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float t = blend (x[i * m + j], b[j]); /* { dg-error "call to .blend. cannot be differentiated" } */
	y[i * m + j] = t * t;
      }
}
