/* { dg-do compile } */
/* How to rewrite (README): inline assembly, setjmp and a computed goto.
   The plugin cannot see what the first two do, and there is no
   kernel-language form of them: keep them out of the kernel (in a
   plain function beside it).  A computed goto that dispatches on an
   operation is a switch (tensorgrad.exec/rewrite-limits.c).  Refused
   at the construct; the computed goto at the function.  */

#include <setjmp.h>

__attribute__ ((differentiable))
void
barrier (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double v = x[i];
      __asm__ ("" : "+x" (v)); /* { dg-error "inline assembly cannot be differentiated" } */
      y[i] = v;
    }
}

__attribute__ ((differentiable))
void
dispatch (int n, int op, const double *x, double *y) /* { dg-error "computed goto cannot be differentiated" } */
{
  static void *const table[2] = { &&twice, &&square };
  for (int i = 0; i < n; i++)
    {
      goto *table[op];
    twice:
      y[i] = 2 * x[i];
      continue;
    square:
      y[i] = x[i] * x[i];
    }
}

jmp_buf env;

__attribute__ ((differentiable))
void
guarded (int n, const double *x, double *y)
{
  if (setjmp (env)) /* { dg-error "call to 'setjmp' cannot be differentiated" } */
    return;
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
