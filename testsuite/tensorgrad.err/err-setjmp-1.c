/* { dg-do compile } */
/* setjmp is named as the user wrote it (glibc's macro calls _setjmp),
   once; the loop that the refused call's result guards draws no second
   error.  */

#include <setjmp.h>

jmp_buf env;

__attribute__ ((differentiable))
void
guarded (int n, const double *x, double *y)
{
  if (setjmp (env)) /* { dg-error "call to .setjmp. cannot be differentiated" } */
    return;
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
