/* { dg-do compile } */
/* A char * parameter (neither floating data nor an integer index array)
   has no gradient ABI.  */

__attribute__ ((differentiable))
void
with_name (int n,
	   const double *x,
	   char *p, /* { dg-error "parameter .p. has unsupported type" } */
	   double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = -x[i];
}
