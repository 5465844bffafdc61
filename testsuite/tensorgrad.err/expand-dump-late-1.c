/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A scratch row rewritten for every sample (for every position of every
   sequence) and read after its loops at the target, z[y[n]], inside the
   loss summed over the samples: expand.c gives z a row per iteration
   and the read the row of its iteration, V * n + y[n] (s T V + V t +
   tok[...] over a batch).  The target's logit inside the sum over the
   row, exp (z[v] - z[y[n]]), is a gather in the stage hoist makes of
   the sum, which reads the row of its sample too.  Run tests:
   tensorgrad.exec/scratch-row-late-read-1.c.  */
/* { dg-final { scan-tensorgrad-dump "expand: z is read after the loops of its iteration, in a sum over them: each read names the copy of its iteration" } } */
/* { dg-final { scan-tensorgrad-after expand "sum \\(n < N; 0; t\[0-9\]+\\\[n\\\] \\+ log \\(t\[0-9\]+\\\[n\\\]\\) - z\\\[\\(long\\) y\\\[n \\* 4 / 4\\\] \\+ V \\* n\\\]\\)" } } */
/* { dg-final { scan-tensorgrad-after expand "z\\\[s \\* \\(T \\* V\\) \\+ \\(\\(long\\) tok\\\[\[^\n\]*\\\] \\+ V \\* t\\)\\\]" } } */

/* { dg-final { scan-tensorgrad-after expand "t\[0-9\]+\\\[n\\\] = sum \\(v < V; 0f; exp \\(z\\\[v \\+ V \\* n\\\] - z\\\[\\(long\\) y\\\[4 \\* n / 4\\\] \\+ V \\* n\\\]\\)\\)" } } */

#include <math.h>

__attribute__ ((differentiable))
float
xent_shift (int N, int D, int V, const int *y, const float *x,
            const float *W)
{
  float loss = 0;
  for (int n = 0; n < N; n++)
    {
      float z[V];
      for (int v = 0; v < V; v++)
        {
          float a = 0;
          for (int d = 0; d < D; d++)
            a += W[v * D + d] * x[n * D + d];
          z[v] = a;
        }
      float se = 0;
      for (int v = 0; v < V; v++)
        se += expf (z[v] - z[y[n]]);
      loss += logf (se);
    }
  return loss;
}

__attribute__ ((differentiable))
double
xent_rows (int N, int D, int V, const int *y, const double *x,
           const double *W, const double *b)
{
  double loss = 0;
  for (int n = 0; n < N; n++)
    {
      double z[V];
      for (int v = 0; v < V; v++)
        {
          double a = b[v];
          for (int d = 0; d < D; d++)
            a += W[v * D + d] * x[n * D + d];
          z[v] = a;
        }
      double mx = z[0];
      for (int v = 1; v < V; v++)
        mx = fmax (mx, z[v]);
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[v] - mx);
      loss += mx + log (se) - z[y[n]];
    }
  return loss / N;
}

__attribute__ ((differentiable))
double
batch_next (int B, int T, int V, int E, const int *tok, const double *emb,
            const double *W)
{
  double loss = 0;
  for (int s = 0; s < B; s++)
    for (int t = 0; t < T; t++)
      {
        double z[V];
        for (int v = 0; v < V; v++)
          {
            double a = 0;
            for (int e = 0; e < E; e++)
              a += W[v * E + e] * emb[tok[s * (T + 1) + t] * E + e];
            z[v] = a;
          }
        double se = 0;
        for (int v = 0; v < V; v++)
          se += exp (z[v]);
        loss += log (se) - z[tok[s * (T + 1) + t + 1]];
      }
  return loss;
}
