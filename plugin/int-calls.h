/* int-calls.h -- calls of integer functions that return an expression of
   their parameters, read as that expression (int-calls.cc).  */

#ifndef TG_INT_CALLS_H
#define TG_INT_CALLS_H

#include "gcc-common.h"

/* In FNDECL, about to be genericized, replace each call of an integer
   function of the file whose body returns an expression of its integer
   parameters by that expression; true if one was replaced.  */
bool int_calls_substitute (tree fndecl);

#endif /* TG_INT_CALLS_H */
