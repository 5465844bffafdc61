/* poison-malloc.h -- fills every block malloc returns with 0xff bytes (a
   NaN in each float and double): a test linked with -Wl,--wrap=malloc
   sees any read of an element its gradient did not write first (an
   array allocated without zeroing, lower.c step 6c) as a NaN in the
   gradient.  */

#ifndef POISON_MALLOC_H
#define POISON_MALLOC_H

#include <stddef.h>
#include <string.h>

static int poisoned_mallocs;

void *__real_malloc (size_t);

void *
__wrap_malloc (size_t n)
{
  void *p = __real_malloc (n);
  if (p)
    {
      memset (p, 0xff, n);
      poisoned_mallocs++;
    }
  return p;
}

#endif
