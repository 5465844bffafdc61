/* { dg-do run } */
/* Without -fplugin-arg-tensorgrad-blas, batched products with
   transposed operands run tiled (lib/back/tiled.h), one call per batch:
   attention's scores S[h][i][j] = sum_d Q[h][i][d] K[h][j][d] (K read
   transposed), double, heads' rows ldq >= dm apart in Q and K.
   d_Q[h][i][d] += sum_j d_S[h][i][j] K[h][j][d]: d_Q[h] += d_S[h] K[h];
   d_K[h][j][d] += sum_i d_S[h][i][j] Q[h][i][d]: d_K[h] += d_S[h]^T Q[h].
   Sizes: 2 heads of 5 x 5 over 3 (loops), 2 heads of 33 x 17 over 65
   (tiled, edge tiles), 1 head of 4 x 8 over 1030 (tiled over five blocks
   of 256 terms for d_Q, d_K's 4 terms loops).  Every component against
   central differences, also with each shadow NULL (but at the last size,
   where a NULL shadow's guards are those of the others).  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
scores (int nh, int t, int u, int dm, int ldq, const double *Q,
	const double *K, double *S)
{
  for (int h = 0; h < nh; h++)
    for (int i = 0; i < t; i++)
      for (int j = 0; j < u; j++)
	{
	  double acc = 0;
	  for (int d = 0; d < dm; d++)
	    acc += Q[(h * t + i) * ldq + d] * K[(h * u + j) * ldq + d];
	  S[(h * t + i) * u + j] = acc;
	}
}

static void
run (int nh, int t, int u, int dm, unsigned seed)
{
  int ldq = dm + 1;
  double *Q = tg_alloc (nh * t * ldq), *K = tg_alloc (nh * u * ldq);
  double *S = tg_alloc (nh * t * u);
  tg_fill (Q, nh * t * ldq, seed, -1, 1);
  tg_fill (K, nh * u * ldq, seed + 1, -1, 1);
  TG_GRADCHECK (scores, &nh, &t, &u, &dm, &ldq, Q, K, S);
  if (dm > 256)
    return;
  TG_GRADCHECK_NULL (scores, "Q", &nh, &t, &u, &dm, &ldq, Q, K, S);
  TG_GRADCHECK_NULL (scores, "K", &nh, &t, &u, &dm, &ldq, Q, K, S);
}

int
main (void)
{
  run (2, 5, 5, 3, 1);
  run (2, 33, 17, 65, 10);
  run (1, 4, 8, 1030, 20);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_Q = \[a-zA-Z0-9_\]+ \\* K as tiled \\(t, dm, u\\) in a loop over h\n" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_K = \[a-zA-Z0-9_\]+\\^T \\* Q as tiled \\(u, dm, t\\) in a loop over h\n" } } */
