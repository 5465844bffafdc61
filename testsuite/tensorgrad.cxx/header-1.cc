/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-header=cxx-header-1.gen.h -I." } */
/* { dg-additional-sources "header-1-aux.cc" } */
/* -fplugin-arg-tensorgrad-header of a C++ file: header-1-aux.cc includes
   the header and calls every gradient through it: a C++ kernel of the
   global namespace, one in nested namespaces, one in an inline
   namespace, float and double overloads of one kernel (two gradients of
   one name), an extern "C" kernel (declared inside extern "C" guards),
   and parameters spelled through typedefs (std::size_t, an alias, bool).
   The static kernel's and the anonymous namespace's gradients are not
   in the header.

   axpy: y[i] = a x[i] + z[i];  d_a += sum x[i] d_y[i], d_x[i] += a d_y[i],
         d_z[i] += d_y[i]
   mask: y[i] = keep[i] ? x[i] * w : 0;  d_x[i] += keep[i] ? w d_y[i] : 0,
         d_w += sum keep[i] ? x[i] d_y[i] : 0  */

#include <cstddef>
#include "tg-test.h"

using real = double;

__attribute__ ((differentiable))
void
axpy (std::size_t n, real a, const real *x, const real *z, real *y)
{
  for (std::size_t i = 0; i < n; i++)
    y[i] = a * x[i] + z[i];
}

namespace la {
namespace blas {
__attribute__ ((differentiable))
void
axpy (int n, double a, const double *x, const double *z, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + z[i];
}
}
inline namespace v1 {
__attribute__ ((differentiable))
void
mask (int n, float w, const bool *keep, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = keep[i] ? x[i] * w : 0;
}
}
}

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

__attribute__ ((differentiable))
void
twice (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

extern "C" __attribute__ ((differentiable))
void
c_twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

__attribute__ ((differentiable))
static void
hidden (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

namespace {
__attribute__ ((differentiable))
void
hidden2 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}
}

void
use_hidden (double *p)
{
  hidden (1, p, p);
  hidden2 (1, p, p);
}

int run_header_1 (); /* header-1-aux.cc */

int
main ()
{
  return run_header_1 ();
}
