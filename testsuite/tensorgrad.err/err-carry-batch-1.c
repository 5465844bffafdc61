/* { dg-do compile } */
/* An Elman RNN over a batch of sequences, each step computing the new
   state into hn in one inner loop and copying it into h in another.  The
   state has a tape block per sample (carry.c), but the first loop of a
   step reads what the second wrote in the step before: a recurrence over
   the time loop inside the loop over samples, which is not done yet.
   (The state updated by one loop per step works: carry-batch-1.c.)
   Reported at the statement that uses the sum reading h (the lifted
   program keeps no location of its loads).  */

#include <math.h>

__attribute__ ((differentiable))
void
rnn_batch (int B, int T, int H, const double *x, const double *W,
           const double *U, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double h[16];
      for (int j = 0; j < H; j++)
        h[j] = 0.0;
      for (int t = 0; t < T; t++)
        {
          double hn[16];
          for (int i = 0; i < H; i++)
            {
              double a = U[i] * x[b * T + t];
              for (int j = 0; j < H; j++)
                a += W[i * H + j] * h[j];
              hn[i] = tanh (a); /* { dg-error "'h' is read here and written by a later loop of the same nest in earlier iterations; not supported yet" } */
              /* { dg-message "'h' is a state the time loop carries inside a loop over samples; a step that reads it in one inner loop and updates it in a later one is a recurrence over the inner of two loops, which is not done yet" "" { target *-*-* } .-1 } */
            }
          for (int i = 0; i < H; i++)
            h[i] = hn[i];
        }
      for (int i = 0; i < H; i++)
        y[b * H + i] = h[i];
    }
}
