/* tanhchain.c -- an elementwise chain y = tanh (sigmoid (a*x + b) * c)
   with learnable scalars a, b, c, written as four loop nests through three
   local temporaries (VLAs), float.
   Benchmark size: n = 1 << 20 (the temporaries take 12 MiB of stack; the
   driver runs on a thread with a large stack).
   Gradient (ABI): tanhchain_grad (n, a, b, c, x, y,
				   d_a, d_b, d_c, d_x, d_y).  */

#include <math.h>

__attribute__((differentiable))
void
tanhchain (int n, float a, float b, float c, const float *x, float *y)
{
  float t1[n], t2[n], t3[n];
  for (int i = 0; i < n; i++)
    t1[i] = a * x[i] + b;
  for (int i = 0; i < n; i++)
    t2[i] = 1.0f / (1.0f + expf (-t1[i]));
  for (int i = 0; i < n; i++)
    t3[i] = t2[i] * c;
  for (int i = 0; i < n; i++)
    y[i] = tanhf (t3[i]);
}
