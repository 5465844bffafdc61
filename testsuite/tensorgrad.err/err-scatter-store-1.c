/* { dg-do compile } */
/* A store through an index array: where an index repeats the last store
   wins, and the gradient would send the adjoint to every value stored
   there (it did, silently).  Refused at the store; accumulating with +=
   is supported (gather-scatter-1.c and the embedding tests).  */

__attribute__ ((differentiable))
void
put (int n, const int *pos, const double *x, double *z)
{
  for (int i = 0; i < n; i++)
    z[pos[i]] = x[i] * x[i]; /* { dg-error ".z. is stored through an index array, whose indices may repeat; not supported" } */
  /* { dg-message "where an index repeats, the last store wins and the gradient would be wrong; accumulate with \\+= instead" "" { target *-*-* } .-1 } */
}
