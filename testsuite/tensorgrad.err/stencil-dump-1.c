/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The wave equation with two time levels carried, each interior updated
   by a loop of its own, the boundary held: each update writes the whole
   row of its tape, keeping the elements it leaves, and the step's loops
   run as one block (the first reads all of the states the later ones
   wrote in the step before).  Run tests: stencil-time-1.c.  */

__attribute__ ((differentiable))
void
wave (int T, int n, double c2, const double *u0, const double *u1,
      double *uT)
{
  double prev[32], cur[32], next[32];
  for (int j = 0; j < n; j++)
    {
      prev[j] = u0[j];
      cur[j] = u1[j];
    }
  for (int t = 0; t < T; t++)
    {
      for (int j = 1; j < n - 1; j++)
        next[j] = 2 * cur[j] - prev[j]
                  + c2 * (cur[j - 1] - 2 * cur[j] + cur[j + 1]);
      for (int j = 1; j < n - 1; j++)
        prev[j] = cur[j];
      for (int j = 1; j < n - 1; j++)
        cur[j] = next[j];
    }
  for (int j = 0; j < n; j++)
    uT[j] = cur[j];
}

/* { dg-final { scan-tensorgrad-dump "tape: the update of 'prev' writes 1 to n \\+ -2; each step keeps the other elements, to n \\+ -1" } } */
/* { dg-final { scan-tensorgrad-dump "tape: the update of 'cur' writes 1 to n \\+ -2; each step keeps the other elements, to n \\+ -1" } } */
/* { dg-final { scan-tensorgrad-dump "block: the loops writing " } } */
