/* { dg-do compile } */
/* How to rewrite (README): a scratch row larger than what each position
   writes.  A next-token loss with the logits of each position in a row
   of a fixed size, VMAX, of which the loop writes the V first, read
   after the row's loops at the target, z[tok[t + 1]]: refused at the
   store of the row (the read could name an element the position did not
   write).  The rewrite, a row of V elements, is
   tensorgrad.exec/rewrite-scratch-size.c.  */

#include <math.h>

#define VMAX 64

__attribute__ ((differentiable))
double
next_token (int T, int V, int H, const int *tok, const double *hs,
            const double *Why, const double *by)
{
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      double z[VMAX]; /* V <= VMAX */
      for (int v = 0; v < V; v++)
        {
          double a = by[v];
          for (int j = 0; j < H; j++)
            a += Why[v * H + j] * hs[t * H + j];
          z[v] = a; /* { dg-error "each element of 'z' is written more than once \\(its index does not use every loop counter\\); not supported yet" } */
          /* { dg-message "the gradient would lose the values overwritten; index 'z' by every loop counter, or accumulate with \\+=" "" { target *-*-* } .-1 } */
        }
      double se = 0;
      for (int v = 0; v < V; v++)
        se += exp (z[v]);
      loss += log (se) - z[tok[t + 1]];
    }
  return loss / T;
}
