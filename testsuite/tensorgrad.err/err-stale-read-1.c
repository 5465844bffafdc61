/* { dg-do compile } */
/* A value read from an array before a later loop rewrote the array in
   place, used after that loop: the lifted program would read the
   rewritten values (the gradient was silently wrong).  Refused at the
   statement that uses the value, with a note at the rewrite.  A sum of
   a row read before one later loop of the row rewrote it is versioned
   (sum-before-rewrite-1.c); two rewrites are not.  */

#include <math.h>

__attribute__ ((differentiable))
void
sum_then_square (int n, const double *x, double *y)
{
  double t[8];
  for (int i = 0; i < n; i++)
    t[i] = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i];
  for (int i = 0; i < n; i++)
    t[i] = t[i] * t[i]; /* { dg-message "'t' is rewritten here; keep the value in a local array written before this loop" } */
  for (int i = 0; i < n; i++)
    y[i] = s * t[i]; /* { dg-error "this statement uses a value read from 't' before a later loop rewrote it; not supported yet" } */
}

__attribute__ ((differentiable))
void
softmax_lse (int N, int V, const double *logits, double *probs, double *lse)
{
  for (int n = 0; n < N; n++)
    {
      double *p = probs + n * V;
      for (int v = 0; v < V; v++)
        p[v] = logits[n * V + v];
      double m = -1e30;
      for (int v = 0; v < V; v++)
        m = fmax (m, p[v]);
      for (int v = 0; v < V; v++)
        p[v] = exp (p[v] - m); /* { dg-message "'probs' is rewritten here" } */
      double z = 0;
      for (int v = 0; v < V; v++)
        z += p[v];
      for (int v = 0; v < V; v++)
        p[v] /= z;
      lse[n] = m + log (z); /* { dg-error "this statement uses a value read from 'probs' before a later loop rewrote it; not supported yet" } */
    }
}
