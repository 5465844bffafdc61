/* { dg-do compile } */
/* A GRU over a time loop: the reset-gate loop reads the state that the
   last loop of the same step wrote in the step before, and the candidate
   loop reads every gate, so the loops cannot run as one loop per element;
   running each to its end before the next would read the state too
   early.  Refused at the statement whose value reads it, with a note.  */

#include <math.h>

__attribute__ ((differentiable))
static double
sigm (double a)
{
  return 1 / (1 + exp (-a));
}

__attribute__ ((differentiable))
void
gru_seq (int T, int H, const double *x, const double *Ur, const double *Uh,
         double *hs)
{
  double h[16], r[16], hn[16];
  for (int j = 0; j < H; j++)
    h[j] = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = x[t];
          for (int k = 0; k < H; k++)
            s += Ur[j * H + k] * h[k];
          r[j] = sigm (s); /* { dg-error "'h' is read here and written by a later loop of the same nest in earlier iterations; not supported yet" } */
        }
      for (int j = 0; j < H; j++)
        {
          double sh = x[t];
          for (int k = 0; k < H; k++)
            sh += Uh[j * H + k] * (r[k] * h[k]);
          hn[j] = 0.5 * h[j] + 0.5 * tanh (sh);
        }
      for (int j = 0; j < H; j++)
        {
          h[j] = hn[j];
          hs[t * H + j] = h[j];
        }
    }
}

/* { dg-message "compute the value where it is read" "" { target *-*-* } 0 } */
