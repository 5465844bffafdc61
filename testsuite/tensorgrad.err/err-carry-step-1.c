/* { dg-do compile } */
/* A loss summed over the steps of a time loop, read inside the loop that
   updates the state h in place: whether a load there sees the step's
   input or its result depends on the element, which the lifted sum,
   moved after the loop, cannot tell.  Refused at the use of the sum.  */

#include <math.h>

__attribute__ ((differentiable))
double
rnn_inside (int T, int H, const double *x, const double *U)
{
  double h[8], hn[8];
  for (int j = 0; j < H; j++)
    h[j] = 0;
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = x[t];
          for (int k = 0; k < H; k++)
            s += U[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        {
          loss += h[j] * h[j];
          h[j] = hn[j];
        }
    }
  return loss; /* { dg-error ".h. is read in a sum over the steps of the loop that updates it, where it cannot be told which step it reads" } */
  /* { dg-message "read .h. in a loop of its own after the loop that updates it" "" { target *-*-* } .-1 } */
}
