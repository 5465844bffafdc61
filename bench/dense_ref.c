/* dense_ref.c -- hand-written backward of dense.c, same signature as the
   generated dense_grad (see ref_util.h for how it is written).  */

#include <stdio.h>
#include <stdlib.h>
#include "ref_util.h"

void
dense_grad_ref (int n, int k, int m, const float *restrict x,
		const float *restrict w, const float *restrict b,
		float *restrict y, float *restrict d_x, float *restrict d_w,
		float *restrict d_b, float *restrict d_y)
{
  (void) b;
  (void) y;
  if (!d_y)
    return;
  if (d_b)
    ref_dense_db (n, m, d_y, d_b);
  if (d_w)
    ref_dense_dw (n, k, m, x, d_y, d_w);
  if (d_x && ref_dense_dx (n, k, m, w, d_y, d_x))
    {
      fprintf (stderr, "dense_grad_ref: out of memory\n");
      abort ();
    }
}
