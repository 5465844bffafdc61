/* emit.h -- from a backward TE program to the body of <name>_grad.  */

#ifndef TG_EMIT_H
#define TG_EMIT_H

#include "gcc-common.h"

/* Give FNDECL, the gradient's declaration, a body computing backward
   program P, gimplify it and add it to the call graph.  */
bool emit_gradient (tree fndecl, const te_program *p);

/* Integer expression N, whose parameter nodes stand for PARAM_VALUES,
   as a tree; NULL if it holds what only a gradient's body can hold.  */
tree emit_param_expr (const te_node *n, tree *param_values, int nparams);

#endif /* TG_EMIT_H */
