/* { dg-do compile } */
/* How to rewrite (README): state carried in the caller's arrays.
   Explicit Euler steps of masses on springs whose positions x and
   velocities v enter and leave in the same arrays.  Refused at the
   first update.  The rewrite, the initial state in inputs of its own
   copied into the outputs, is tensorgrad.exec/rewrite-state-inout.c.  */

__attribute__ ((differentiable))
void
springs (int T, int n, double dt, double k, double *x, double *v)
{
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
        v[i] += dt * (-k * x[i]); /* { dg-error "the gradient needs the entry value of 'v', which a later statement overwrites" } */
      /* { dg-message "the gradient needs the states that follow from it; pass the initial state in an array of its own that the kernel only reads, not in 'v'" "" { target *-*-* } .-1 } */
      for (int i = 0; i < n; i++)
        x[i] += dt * v[i];
    }
}
