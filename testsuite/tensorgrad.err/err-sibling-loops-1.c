/* { dg-do compile } */
/* Two inner loops of one time loop, the first reading the state the
   second wrote in the previous step, the second reading all of the first
   one's row (a GRU's reset gate inside the candidate's matrix product):
   the two cannot run as one loop over the elements of a step (lstm-1.c,
   where the second uses the first one's element, can), and the gradient,
   which runs each inner loop over every step before the next, would see
   the state before the second loop wrote it.  Refused at the read (the
   gradient was silently wrong before).  */

#include <math.h>

__attribute__ ((differentiable))
void
gru_like (int T, int H, const double *W, const double *U, const double *h0,
	  double *r, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < H; i++)
	{
	  double s = 0;
	  for (int j = 0; j < H; j++)
	    s += W[i * H + j] * h[t * H + j];
	  r[t * H + i] = tanh (s); /* { dg-error ".h. is read here and written by a later loop of the same nest in earlier iterations; not supported yet" } */
	  /* { dg-message "compute the value where it is read, in the same inner loop, or move the loop that writes .h. before this nest" "" { target *-*-* } .-1 } */
	}
      for (int i = 0; i < H; i++)
	{
	  double s = 0;
	  for (int j = 0; j < H; j++)
	    s += U[i * H + j] * r[t * H + j] * h[t * H + j];
	  h[(t + 1) * H + i] = tanh (s);
	}
    }
}
