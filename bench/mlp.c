/* mlp.c -- a two-layer perceptron with its loss: hidden = tanh (x.w1 + b1),
   logits = hidden.w2 + b2, and the mean softmax cross-entropy against
   integer labels, returned in double.  Activations are local temporaries
   (VLAs); the arrays are float as in ML code.
   x[n][d], w1[d][h], b1[h], w2[h][c], b2[c], label[n] in [0, c).
   Benchmark size: n = 256, d = 512, h = 256, c = 10.
   Gradient (ABI): mlp_grad (n, d, h, c, x, w1, b1, w2, b2, label,
			     d_x, d_w1, d_b1, d_w2, d_b2, d_return).  */

#include <math.h>

__attribute__((differentiable))
double
mlp (int n, int d, int h, int c, const float *x, const float *w1,
     const float *b1, const float *w2, const float *b2, const int *label)
{
  float hid[n * h], z[n * c];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	float acc = b1[j];
	for (int p = 0; p < d; p++)
	  acc += x[i * d + p] * w1[p * h + j];
	hid[i * h + j] = tanhf (acc);
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
	float acc = b2[j];
	for (int p = 0; p < h; p++)
	  acc += hid[i * h + p] * w2[p * c + j];
	z[i * c + j] = acc;
      }
  double loss = 0.0;
  for (int i = 0; i < n; i++)
    {
      float mx = z[i * c];
      for (int j = 1; j < c; j++)
	mx = fmaxf (mx, z[i * c + j]);
      float s = 0.0f;
      for (int j = 0; j < c; j++)
	s += expf (z[i * c + j] - mx);
      loss += logf (s) + mx - z[i * c + label[i]];
    }
  return loss / n;
}
