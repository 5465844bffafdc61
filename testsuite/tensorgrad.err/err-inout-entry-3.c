/* { dg-do compile } */
/* An in-out array read for its entry value by one statement and
   overwritten by a later one: the gradient of the first would read the
   value the forward left, not the one it read.  Refused at the read,
   in a later nest and in the same loop (both were silently wrong).  */

__attribute__ ((differentiable))
void
scale_state (int n, double a, double *s, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * s[i]; /* { dg-error "the gradient needs the entry value of .s., which a later statement overwrites" } */
  for (int i = 0; i < n; i++)
    s[i] = y[i] + 1.0;
}

__attribute__ ((differentiable))
void
square_then_clear (int n, double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] * x[i]; /* { dg-error "the gradient needs the entry value of .x., which a later statement overwrites" } */
      x[i] = 0.5;
    }
}
