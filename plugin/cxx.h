/* cxx.h -- kernels in C++ files: what the plugin asks of the C++ front
   end (cxx.cc).  Every function here may be called in any compiler: in
   cc1 and lto1 they answer as for C.  */

#ifndef TG_CXX_H
#define TG_CXX_H

#include "gcc-common.h"

/* Is this the C++ front end (cc1plus)?  */
bool cxx_p (void);

/* Refuse FNDECL as a kernel where C++ makes it one tensorgrad cannot
   take: a member function (of a class, also a lambda's), a template or
   an explicit specialization of one (each an error at FNDECL), an
   instantiation of a template (no error: its template got one).  True
   if FNDECL is refused.  */
bool cxx_refuse_kernel (tree fndecl);

/* The functions named NAME declared in the namespace of DECL (and, for
   a DECL of C language linkage in a named namespace, in the global one
   too, where a header declares it), in *FNS.  */
void cxx_functions (tree decl, tree name, auto_vec<tree> *fns);

/* The variable named NAME declared in the namespace of DECL, or NULL.  */
tree cxx_variable (tree decl, tree name);

/* Give DECL, a FUNCTION_DECL or VAR_DECL the plugin made for KERNEL,
   KERNEL's namespace and language linkage: the C++ front end then gives
   it the assembler name of a declaration written beside KERNEL (mangled
   for a C++ kernel, plain for an extern "C" one).  */
void cxx_adopt (tree decl, tree kernel);

/* Has DECL C language linkage: extern "C" in C++, always in C?  */
bool cxx_c_linkage (tree decl);

/* Print the namespaces around DECL to F, outermost first, as lines
   "namespace N {" ("inline namespace N {" for an inline one); return
   their number (that many "}" close them).  */
int cxx_print_namespaces (FILE *f, tree decl);

/* In FNDECL, a kernel or a helper about to be genericized, each value
   read from std::min, std::max or std::clamp of an arithmetic type
   becomes the conditional expression that call computes; true if one
   did (then call cxx_trees_changed).  */
bool cxx_value_calls (tree fndecl);

/* The plugin changed a function's trees before genericization: the C++
   front end must not take folded forms of them from its cache (nothing
   to do in C).  */
void cxx_trees_changed (void);

#endif /* TG_CXX_H */
