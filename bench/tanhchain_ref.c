/* tanhchain_ref.c -- hand-written backward of tanhchain.c, same signature
   as the generated tanhchain_grad.

   One fused pass, no temporaries: tanh' comes from the forward's output
   (1 - y*y), the sigmoid s is recomputed once (one expf per element, no
   tanhf), and sigmoid' = s * (1 - s).  The three scalar adjoints are
   hoisted reductions into registers, added to the shadows at the end.  */

#include <math.h>
#include <stddef.h>

void
tanhchain_grad_ref (int n, float a, float b, float c,
		    const float *restrict x, float *restrict y,
		    float *restrict d_a, float *restrict d_b,
		    float *restrict d_c, float *restrict d_x,
		    float *restrict d_y)
{
  if (!d_y)
    return;
  float sa = 0.0f, sb = 0.0f, sc = 0.0f;
  for (int i = 0; i < n; i++)
    {
      float s = 1.0f / (1.0f + expf (-(a * x[i] + b)));
      float g3 = d_y[i] * (1.0f - y[i] * y[i]);	/* adjoint of s*c */
      sc += g3 * s;
      float g1 = g3 * c * s * (1.0f - s);		/* adjoint of a*x+b */
      sa += g1 * x[i];
      sb += g1;
      if (d_x)
	d_x[i] += a * g1;
    }
  if (d_a)
    *d_a += sa;
  if (d_b)
    *d_b += sb;
  if (d_c)
    *d_c += sc;
}
