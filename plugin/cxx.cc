/* cxx.cc -- kernels in C++ files.

   Before:  namespace nn {
            __attribute__((differentiable))
            void layer (int n, const float *x, float *y);
            }
   After:   nn::layer_grad (int, const float *, float *, float *, float *),
            _ZN2nn10layer_gradEiPKfPfS3_S3_, as g++ names a declaration
            of it written beside the kernel; extern "C" kernels keep C
            names (layer_grad).

   1. A FUNCTION_DECL that language-independent code builds has C
      linkage to the C++ front end (cp-tree.h, DECL_LANGUAGE): GCC would
      name it layer_grad.  cxx_adopt gives the gradient (and the
      descriptor <name>_gradcheck) the C++ front end's language-specific
      part with the kernel's language, and the kernel's namespace, so
      that the front end's mangler (lang_hooks.set_decl_assembler_name)
      names it as the user's declaration.
   2. The user's declarations of <name>_grad are looked up in the
      kernel's namespace once the file is parsed (abi.cc), so one
      written anywhere in the file is the one defined.
   3. A member function, a lambda or a template is refused at the
      kernel: tensorgrad differentiates functions of namespace scope.

   Limits: the plugin declares nothing itself in C++: code that calls
   <name>_grad declares it (by including the header= file, say).  */

#define TG_CXX_FRONT_END
#include "cxx.h"

/* In cc1plus only: weak, so that the plugin loads in cc1 and lto1,
   where cxx_p is false and none of them is called.  */
extern tree get_namespace_binding (tree, tree) __attribute__ ((weak));
extern void retrofit_lang_decl (tree) __attribute__ ((weak));
extern tree cp_global_trees[] __attribute__ ((weak));

bool
cxx_p (void)
{
  return lang_GNU_CXX () && get_namespace_binding && retrofit_lang_decl
         && cp_global_trees;
}

bool
cxx_refuse_kernel (tree fndecl)
{
  if (!cxx_p ())
    return false;
  location_t loc = DECL_SOURCE_LOCATION (fndecl);
  if (LAMBDA_FUNCTION_P (fndecl))
    {
      auto_diagnostic_group d;
      error_at (loc, "a lambda cannot be a differentiable function");
      inform (loc, "make it a function of namespace scope (%<static%> in "
                   "the file, say)");
      return true;
    }
  if (DECL_CLASS_SCOPE_P (fndecl))
    {
      auto_diagnostic_group d;
      error_at (loc, "differentiable function %qD is a member of %qT; "
                     "only a function of namespace scope can be a kernel",
                fndecl, DECL_CONTEXT (fndecl));
      inform (loc, "make it a function outside the class (in a namespace, "
                   "or %<static%> in the file), taking the arrays it uses "
                   "as pointers");
      return true;
    }
  if (DECL_LANG_SPECIFIC (fndecl) && DECL_TEMPLATE_INFO (fndecl))
    {
      if (!DECL_TEMPLATE_INSTANTIATION (fndecl))
        {
          auto_diagnostic_group d;
          error_at (loc, "differentiable function %qD is a template; a "
                         "template cannot be a kernel",
                    fndecl);
          inform (loc, "write the kernel for each element type (overloads "
                       "of one name are fine)");
        }
      return true;
    }
  return false;
}

/* The namespace of DECL, or NULL for the global one.  */
static tree
decl_namespace (tree decl)
{
  tree ctx = DECL_CONTEXT (decl);
  return ctx && TREE_CODE (ctx) == NAMESPACE_DECL ? ctx : NULL_TREE;
}

/* Append the functions in binding B to *FNS.  */
static void
push_functions (tree b, auto_vec<tree> *fns)
{
  for (ovl_iterator it (b); it; ++it)
    if (TREE_CODE (*it) == FUNCTION_DECL && !fns->contains (*it))
      fns->safe_push (*it);
}

void
cxx_functions (tree decl, tree name, auto_vec<tree> *fns)
{
  if (!cxx_p ())
    return;
  tree ns = decl_namespace (decl);
  push_functions (get_namespace_binding (ns, name), fns);
  if (ns && cxx_c_linkage (decl))
    push_functions (get_namespace_binding (NULL_TREE, name), fns);
}

tree
cxx_variable (tree decl, tree name)
{
  if (!cxx_p ())
    return NULL_TREE;
  tree b = get_namespace_binding (decl_namespace (decl), name);
  return b && VAR_P (b) ? b : NULL_TREE;
}

void
cxx_adopt (tree decl, tree kernel)
{
  DECL_CONTEXT (decl) = DECL_CONTEXT (kernel);
  if (!cxx_p ())
    return;
  retrofit_lang_decl (decl);
  SET_DECL_LANGUAGE (decl, DECL_LANGUAGE (kernel));
}

bool
cxx_c_linkage (tree decl)
{
  return !cxx_p () || DECL_LANGUAGE (decl) == lang_c;
}

int
cxx_print_namespaces (FILE *f, tree decl)
{
  auto_vec<tree> outer;
  for (tree c = decl_namespace (decl);
       c && TREE_CODE (c) == NAMESPACE_DECL && c != global_namespace;
       c = DECL_CONTEXT (c))
    outer.safe_push (c);
  for (unsigned i = outer.length (); i-- > 0;)
    fprintf (f, "%snamespace %s {\n",
             DECL_NAMESPACE_INLINE_P (outer[i]) ? "inline " : "",
             DECL_NAME (outer[i]) ? IDENTIFIER_POINTER (DECL_NAME (outer[i]))
                                  : "");
  return outer.length ();
}
