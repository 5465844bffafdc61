/* rnn_ref.c -- hand-written backward of rnn.c (backpropagation through
   time), same signature as the generated rnn_grad.

   The forward's states h are all there (the ABI guarantees f_grad sees
   them), so nothing is recomputed and tanh' = 1 - h*h.  Backward from
   t = T-1 to 0, with g the adjoint of state t+1 (d_h's row t+1 plus what
   later steps carried back):

     dz     = g * (1 - h[t+1]^2)
     d_b   += dz
     d_W   += dz h[t]^T          rank-1 update, row i of d_W += dz[i] h[t]
     d_U   += dz x[t]^T          likewise
     d_x[t] += U^T dz            axpys over the rows of U
     g      = d_h[t] + W^T dz    axpys over the rows of W

   and at the end d_h0 += g.  Every inner loop is a unit-stride axpy over
   a row, which GCC vectorizes without -ffast-math; the scratch is two
   vectors of H floats.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
rnn_grad_ref (int T, int H, int D, const float *restrict W,
	      const float *restrict U, const float *restrict b,
	      const float *restrict x, const float *restrict h0,
	      float *restrict h, float *restrict d_W, float *restrict d_U,
	      float *restrict d_b, float *restrict d_x, float *restrict d_h0,
	      float *restrict d_h)
{
  (void) b;
  (void) h0;
  /* A NULL d_h is a zero adjoint: every gradient is zero.  */
  if (!d_h || H <= 0 || T < 0)
    return;
  if (!d_W && !d_U && !d_b && !d_x && !d_h0)
    return;
  float *restrict g = malloc (2 * (size_t) H * sizeof *g);
  if (!g)
    {
      fprintf (stderr, "rnn_grad_ref: out of memory\n");
      abort ();
    }
  float *restrict dz = g + H;

  memcpy (g, d_h + (size_t) T * H, (size_t) H * sizeof *g);
  for (int t = T - 1; t >= 0; t--)
    {
      const float *restrict hn = h + (size_t) (t + 1) * H;
      const float *restrict hp = h + (size_t) t * H;
      const float *restrict xt = x + (size_t) t * D;
      for (int i = 0; i < H; i++)
	dz[i] = g[i] * (1.0f - hn[i] * hn[i]);
      if (d_b)
	for (int i = 0; i < H; i++)
	  d_b[i] += dz[i];
      if (d_U)
	for (int i = 0; i < H; i++)
	  {
	    float a = dz[i];
	    float *restrict du = d_U + (size_t) i * D;
	    for (int k = 0; k < D; k++)
	      du[k] += a * xt[k];
	  }
      if (d_x)
	{
	  float *restrict dx = d_x + (size_t) t * D;
	  for (int i = 0; i < H; i++)
	    {
	      float a = dz[i];
	      const float *restrict ur = U + (size_t) i * D;
	      for (int k = 0; k < D; k++)
		dx[k] += a * ur[k];
	    }
	}
      if (d_W)
	for (int i = 0; i < H; i++)
	  {
	    float a = dz[i];
	    float *restrict dw = d_W + (size_t) i * H;
	    for (int j = 0; j < H; j++)
	      dw[j] += a * hp[j];
	  }
      /* The adjoint of state t, unless nothing wants it.  */
      if (t == 0 && !d_h0)
	break;
      memcpy (g, d_h + (size_t) t * H, (size_t) H * sizeof *g);
      for (int i = 0; i < H; i++)
	{
	  float a = dz[i];
	  const float *restrict wr = W + (size_t) i * H;
	  for (int j = 0; j < H; j++)
	    g[j] += a * wr[j];
	}
    }
  if (d_h0)
    for (int j = 0; j < H; j++)
      d_h0[j] += g[j];
  free (g);
}
