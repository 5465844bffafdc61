/* { dg-do compile } */
/* { dg-options "-O3 -fplugin-arg-tensorgrad-dump" } */
/* lib/passes/lanes.c step 4: at -O3 GCC vectorizes loops that leave a
   scalar rest itself, and better than their form in lanes, so only
   loops that sum in lanes run in them (te_program.vect_rest).  scale's
   gradient (d_x[i*m + j] += d_y * w[j], d_w[j] += x * d_y, j innermost)
   has no sum along its loops: nothing in lanes (at -O2,
   lanes-vector-1.c, such loops are).  rowdot's gradient computes the
   row's dot product again, a sum in 8 lanes still, and runs d_x's and
   d_w's axpys over the row plainly: one reduction in lanes, no loop
   (at -O2: 3 loop(s), 1 reduction(s)).  */

__attribute__ ((differentiable))
void
scale (int n, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] * w[j];
}

__attribute__ ((differentiable))
void
rowdot (int n, int m, const float *x, const float *w, float *r)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * w[j];
      r[i] = s * s;
    }
}

/* { dg-final { scan-tensorgrad-dump-times "lanes: \[0-9\]+ loop\\(s\\) run in lanes" 1 } } */
/* { dg-final { scan-tensorgrad-dump "lanes: 1 loop\\(s\\) run in lanes of 8, 1 reduction\\(s\\) sum in lanes" } } */
