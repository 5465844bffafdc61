/* { dg-do compile } */
/* How to rewrite (README): two states shifted by one loop over part of
   their elements.  The wave equation with two time levels, prev and
   cur, both moved on by one loop over the interior.  Refused at the
   update of cur.  The rewrite, a loop for each, is
   tensorgrad.exec/rewrite-state-partial.c.  */

__attribute__ ((differentiable))
void
wave (int T, int n, double c2, const double *u0, const double *u1,
      double *uT)
{
  double prev[n], cur[n], next[n];
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
        {
          prev[j] = cur[j];
          cur[j] = next[j]; /* { dg-error "'cur' is a state the time loop carries, updated in part of its elements by a loop that updates another array too; not supported yet" } */
          /* { dg-message "the elements the update leaves are kept from step to step where 'cur' is the one array its loop updates" "" { target *-*-* } .-1 } */
        }
    }
  for (int j = 0; j < n; j++)
    uT[j] = cur[j];
}
