/* { dg-do compile } */
/* Explicit Euler whose state enters and leaves in the in-out arrays x
   and v: the gradient needs the state of every step (d_k needs x at each
   step), which follows from the entry values the kernel overwrote.  The
   tape (carry.c) would be recomputed from the final values, so the
   kernel is refused; the note says to pass the initial state apart.  */

__attribute__ ((differentiable))
void
euler_inout (int T, int n, double dt, double k, double *x, double *v)
{
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
        v[i] += dt * (-k * x[i]); /* { dg-error "the gradient needs the entry value of .v., which a later statement overwrites" } */
      /* { dg-message "pass the initial state in an array of its own that the kernel only reads, not in .v." "" { target *-*-* } .-1 } */
      for (int i = 0; i < n; i++)
        x[i] += dt * v[i];
    }
}
