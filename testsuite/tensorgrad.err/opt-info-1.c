/* { dg-do compile } */
/* { dg-options "-fopt-info" } */
/* -fopt-info: GCC's optimization remarks say at each kernel that its
   gradient was synthesized and what it cost, with the figures of the
   pipeline: its loop nests, the temporaries fused into their readers
   and nests run inside others, the values read back from the forward,
   and the bytes of the local arrays it allocates.  The same at every -O
   level.

   layer:   one nest; tanh' read from y (1 reused); no temporary.
   chain:   t fused into its reader (1 fused), one nest.
   softmax: three nests of a row run as one (2 fused); p / s, the
            exponentials and their quotient read back (3 reused); the
            row's statistics shrink to scalars: 0 bytes.
   prefix:  a recurrence read back from y; its adjoint keeps two
            elements (16 bytes).
   rnn:     the tape's adjoint keeps two steps of H (16 * H bytes).  */

#include <math.h>

__attribute__ ((differentiable))
void
layer (int n, double w, double b, const double *x, double *y) /* { dg-message "optimized: synthesized gradient 'layer_grad': 1 loop nest, 0 fused, 1 reused, 0 bytes of temporaries" } */
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (w * x[i] + b);
}

__attribute__ ((differentiable))
void
chain (int n, const double *x, double *y) /* { dg-message "optimized: synthesized gradient 'chain_grad': 1 loop nest, 1 fused, 0 reused, 0 bytes of temporaries" } */
{
  double t[64];
  for (int i = 0; i < n; i++)
    t[i] = exp (x[i]);
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[i] + x[i];
}

__attribute__ ((differentiable))
void
softmax (int n, int m, const double *x, double *y) /* { dg-message "optimized: synthesized gradient 'softmax_grad': 1 loop nest, 2 fused, 3 reused, 0 bytes of temporaries" } */
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmax (mx, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        {
          y[i * m + j] = exp (x[i * m + j] - mx);
          s += y[i * m + j];
        }
      for (int j = 0; j < m; j++)
        y[i * m + j] /= s;
    }
}

__attribute__ ((differentiable))
void
prefix (int n, const double *x, double *y) /* { dg-message "optimized: synthesized gradient 'prefix_grad': 1 loop nest, 0 fused, 0 reused, 16 bytes of temporaries" } */
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * 0.9 + sin (x[i]);
}

__attribute__ ((differentiable))
double
rnn (int T, int H, int D, const double *h0, const double *W, const double *U,
     const double *b, const double *x, double *h)
{
  /* { dg-message "optimized: synthesized gradient 'rnn_grad': 3 loop nests, 0 fused, 1 reused, 16 \\* H bytes of temporaries" "" { target *-*-* } .-3 } */
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
        double a = b[i];
        for (int j = 0; j < H; j++)
          a += W[i * H + j] * h[t * H + j];
        for (int k = 0; k < D; k++)
          a += U[i * D + k] * x[t * D + k];
        h[(t + 1) * H + i] = tanh (a);
      }
  double l = 0;
  for (int i = 0; i < H; i++)
    l += h[T * H + i] * (i + 1);
  return l;
}
