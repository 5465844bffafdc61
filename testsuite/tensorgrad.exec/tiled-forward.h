/* tiled-forward.h -- tells whether a -fplugin-arg-tensorgrad-tiled-forward
   test's kernel ran the tiled product: the tiled function
   (lib/back/tiled.h) allocates its packing buffers with malloc, and the
   loops it replaces allocate nothing.  The test links with
   -Wl,--wrap=malloc, so every malloc its object calls reaches
   __wrap_malloc, which counts it in malloc_calls (volatile: GCC
   assumes that malloc, a builtin, leaves the program's variables as
   they were, and would fold the difference of two reads around a
   kernel's call to zero).  */

#ifndef TILED_FORWARD_H
#define TILED_FORWARD_H

#include <stddef.h>

static volatile long malloc_calls;

void *__real_malloc (size_t);

void *
__wrap_malloc (size_t n)
{
  malloc_calls++;
  return __real_malloc (n);
}

/* Whether a product of M x N x K runs tiled: lib/back/tiled.h's
   TE_TILED_MIN_* (M >= 4, N >= 8, K >= 8, M N K >= 32768).  */
static int
tiled_size (long m, long n, long k)
{
  return m >= 4 && n >= 8 && k >= 8 && m * n * k >= 32768;
}

#endif
