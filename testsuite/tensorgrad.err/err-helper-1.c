/* { dg-do compile } */
/* Helper functions of the file, not marked differentiable, that cannot be
   substituted where a kernel calls them (unmarked helpers that return an
   expression of their parameters are: helper-implicit-1.c).  A helper
   that computes its value through a local array is refused at the call,
   with a note at the helper saying why; one that reads a global array or
   stores to a static variable is refused inside, at the construct, and
   its call once more without a note.  A helper of a file whose kernels
   do not call it is not looked at.  */

#include <math.h>

static double
steps (double a) /* { dg-message "a function is substituted where it is called only when its value is one expression of its parameters; .steps. writes the local array .t." } */
{
  double t[3];
  t[0] = a;
  t[1] = t[0] * sin (a);
  t[2] = t[1] * t[0];
  return t[2] + t[1];
}

double table[4];

static double
from_table (double a)
{
  return a * table[1]; /* { dg-error "global array .table., which the kernel reads, cannot be differentiated" } */
}

static double
counted (double a)
{
  static int calls;
  calls++; /* { dg-error "a store to .calls., which has static storage, cannot be differentiated" } */
  return 2 * a;
}

static double
unused_helper (double a)
{
  static int calls;
  calls++;
  return a * table[2];
}

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = steps (x[i]); /* { dg-error "call to .steps. cannot be differentiated" } */
}

__attribute__ ((differentiable))
void
act2 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = from_table (x[i]) /* { dg-error "call to .from_table. cannot be differentiated" } */
           + counted (x[i]); /* { dg-error "call to .counted. cannot be differentiated" } */
}

double
not_a_kernel (double a)
{
  return unused_helper (a);
}

/* { dg-message "pass .table. to the kernel as a parameter" "" { target *-*-* } 23 } */
