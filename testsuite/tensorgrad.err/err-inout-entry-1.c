/* { dg-do compile } */
/* Squaring an in-out parameter in place: the gradient needs the entry
   value 2 y, which the store overwrites.  */

__attribute__ ((differentiable))
void
square_inplace (int n, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = y[i] * y[i]; /* { dg-error "the gradient needs the entry value of .y., which this statement overwrites" } */
}
