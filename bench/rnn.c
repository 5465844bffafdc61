/* rnn.c -- an Elman RNN over T steps, float: h[t+1] = tanh (W h[t] +
   U x[t] + b), h[0] = h0.  W[H][H], U[H][D], b[H], x[T][D], h0[H]; every
   state is kept in the caller's h[T+1][H], an output (the kernel reads
   only the states it wrote).
   Benchmark size: T = 64 steps, H = 256 hidden, D = 128 inputs.
   Gradient (ABI): rnn_grad (T, H, D, W, U, b, x, h0, h,
			     d_W, d_U, d_b, d_x, d_h0, d_h).  */

#include <math.h>

__attribute__((differentiable))
void
rnn (int T, int H, int D, const float *W, const float *U, const float *b,
     const float *x, const float *h0, float *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	float acc = b[i];
	for (int j = 0; j < H; j++)
	  acc += W[i * H + j] * h[t * H + j];
	for (int k = 0; k < D; k++)
	  acc += U[i * D + k] * x[t * D + k];
	h[(t + 1) * H + i] = tanhf (acc);
      }
}
