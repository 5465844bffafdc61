/* { dg-do compile } */
/* A loss that reads a carried state through two sums in one step, one
   before the update (the step's input) and one after it (its result):
   the lifter's one load of h[j] inside the loss's sum over t cannot say
   which of the two rows it is, so carry.c refuses it, at the use of the
   loss.  (Before carry ran ahead of hoist, both sums became stages that
   read the step's result: a wrong gradient.)  */

#include <math.h>

__attribute__ ((differentiable))
double
two_sums (int T, int H, const double *h0, const double *W)
{
  double h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      double s1 = 0;
      for (int j = 0; j < H; j++)
        s1 += exp (h[j]);
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
      double s2 = 0;
      for (int j = 0; j < H; j++)
        s2 += exp (h[j]);
      loss += log (s1) * log (s2);
    }
  return loss; /* { dg-error "'h' is read in a sum over the steps of the loop that updates it, where it cannot be told which step it reads; not supported yet" } */
  /* { dg-message "read 'h' in a loop of its own after the loop that updates it in the step, or store the state of every step in an array" "" { target *-*-* } .-1 } */
}
