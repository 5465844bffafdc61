/* abi.h -- the gradient's signature (DESIGN.md section 2), its
   declaration for callers in the same file, and the check of a prototype
   the user wrote.  */

#ifndef TG_ABI_H
#define TG_ABI_H

#include "gcc-common.h"

/* Classify a parameter of type TYPE: false if a kernel cannot take it.
   *ELEM is the value's or the pointee's element type.  */
bool abi_classify (tree type, te_param_kind *kind, te_type *elem);

/* The C type of TE type T (float for TE_F32, ...).  */
tree te_tree_type (te_type t);

/* Is FNDECL marked differentiable?  */
bool abi_is_kernel (tree fndecl);

/* Could FNDECL be a helper: a function returning float or double whose
   parameters are floating or integer scalars, not marked differentiable?  */
bool abi_helper_shape (tree fndecl);

/* Is FNDECL a helper: a function of that shape that a kernel calls,
   directly or through other helpers (found by abi_declare_grad)?  Its
   value is substituted where it is called; it gets no gradient.  */
bool abi_is_helper (tree fndecl);

/* Check the signature of kernel FNDECL (errors at the offending parameter)
   and declare <name>_grad in file scope, or check the user's prototype.
   Called when the front end has parsed FNDECL's body.  */
void abi_declare_grad (tree fndecl);

/* The front end has parsed declaration DECL (PLUGIN_FINISH_DECL): in
   C++, one of the gradient of an internal kernel parsed before it keeps
   GCC from warning that it is used but never defined.  */
void abi_finish_decl (tree decl);

/* The FUNCTION_DECL of FNDECL's gradient: the one abi_declare_grad made,
   or a new one.  NULL if the kernel's signature is invalid.  */
tree abi_grad_decl (tree fndecl);

/* The <name>_grad declared, where a kernel calling FNDECL was parsed,
   for FNDECL, a function of this or another file; or NULL.  */
tree abi_declared_grad (tree fndecl);

/* NULL if GRAD has the type of FNDECL's gradient; else that type.  */
tree abi_expected_grad_type (tree fndecl, tree grad);

/* The kernel whose gradient GRAD is declared as, or NULL.  */
tree abi_kernel_of (tree grad);

/* With debug information, give the gradient of kernel FNDECL its early
   debug entry now, during the lowering GCC runs before it writes them
   (the gradient's body comes later): so every gradient, called in its
   file or not, gets a subprogram entry with its parameters and locals,
   and gdb steps through it.  */
void abi_early_debug (tree fndecl);
/* Did abi_early_debug give GRAD its entry?  */
bool abi_has_early_debug (tree grad);

/* The gradient of KERNEL the user wrote, or NULL (tensorgrad.cc).  */
tree custom_gradient (tree kernel);

/* GC roots of the declarations made here.  */
extern const struct ggc_root_tab abi_gc_roots[];

#endif /* TG_ABI_H */
