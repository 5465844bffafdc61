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

   4. std::min, std::max and std::clamp of an arithmetic type return a
      reference to one of their arguments, and the lifter takes no
      reference: before genericization (cxx_value_calls) each such call
      whose value is read becomes the conditional its definition is,
      each argument evaluated once:
        y[i] = std::max (x[i], 0.0);   ->  y[i] = x[i] < 0.0 ? 0.0 : x[i];
      as the standard defines them: max (a, b) is a < b ? b : a,
      min (a, b) is b < a ? b : a, clamp (v, lo, hi) is
      v < lo ? lo : hi < v ? hi : v (ties keep the first argument).

   Limits: the plugin declares nothing itself in C++: code that calls
   <name>_grad declares it (by including the header= file, say).  The
   forms with a comparison function or an initializer list are left as
   calls.  */

#define TG_CXX_FRONT_END
#include "cxx.h"

/* In cc1plus only: weak, so that the plugin loads in cc1 and lto1,
   where cxx_p is false and none of them is called.  */
extern tree get_namespace_binding (tree, tree) __attribute__ ((weak));
extern void retrofit_lang_decl (tree) __attribute__ ((weak));
extern tree cp_global_trees[] __attribute__ ((weak));
extern void clear_fold_cache (void) __attribute__ ((weak));

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

/* Is FN std::NAME (std of the global namespace, whose context is the
   translation unit by now, or an inline namespace in it)?  */
static bool
std_function_p (tree fn, const char *name)
{
  if (TREE_CODE (fn) != FUNCTION_DECL || !DECL_NAME (fn)
      || !id_equal (DECL_NAME (fn), name))
    return false;
  tree ns = DECL_CONTEXT (fn);
  while (ns && TREE_CODE (ns) == NAMESPACE_DECL
         && DECL_NAMESPACE_INLINE_P (ns))
    ns = DECL_CONTEXT (ns);
  return ns && TREE_CODE (ns) == NAMESPACE_DECL && DECL_NAME (ns)
         && id_equal (DECL_NAME (ns), "std")
         && (!DECL_CONTEXT (ns) || DECL_CONTEXT (ns) == global_namespace
             || TREE_CODE (DECL_CONTEXT (ns)) == TRANSLATION_UNIT_DECL);
}

/* The value argument ARG (a const T &) of a call refers to, evaluated
   once, or NULL if its shape is not known; a variable it names is pushed
   to *VARS.  */
static tree
referred_value (tree arg, tree type, auto_vec<tree> *vars)
{
  tree a = arg;
  STRIP_NOPS (a);
  if (TREE_CODE (a) == ADDR_EXPR
      && TREE_CODE (TREE_OPERAND (a, 0)) == TARGET_EXPR)
    {
      /* A temporary: its initial value is the argument's value.  */
      tree init = TARGET_EXPR_INITIAL (TREE_OPERAND (a, 0));
      if (!init || VOID_TYPE_P (TREE_TYPE (init)))
        return NULL_TREE;
      return save_expr (fold_convert (type, init));
    }
  if (!POINTER_TYPE_P (TREE_TYPE (a)) && !TYPE_REF_P (TREE_TYPE (a)))
    return NULL_TREE;
  if (TREE_CODE (a) == ADDR_EXPR && VAR_P (TREE_OPERAND (a, 0))
      && TYPE_MAIN_VARIANT (TREE_TYPE (TREE_OPERAND (a, 0)))
             == TYPE_MAIN_VARIANT (type))
    {
      /* A variable: read it.  Its address may no longer be taken
         (cxx_value_calls).  */
      vars->safe_push (TREE_OPERAND (a, 0));
      return save_expr (TREE_OPERAND (a, 0));
    }
  tree ptr = fold_convert (build_pointer_type (type), a);
  return save_expr (build_fold_indirect_ref (ptr));
}

/* What cxx_value_calls found: whether it changed anything, and the
   variables whose address the calls it replaced took.  */
struct value_walk
{
  bool changed;
  auto_vec<tree> vars;
  hash_set<tree> taken; /* those whose address is still taken */
};

/* walk_tree callback of cxx_value_calls: *TP, a read of what std::min,
   max or clamp returned, becomes their conditional.  */
static tree
value_call (tree *tp, int *walk_subtrees, void *data)
{
  value_walk *w = (value_walk *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (t) != INDIRECT_REF)
    return NULL_TREE;
  tree call = TREE_OPERAND (t, 0);
  STRIP_NOPS (call);
  if (TREE_CODE (call) != CALL_EXPR)
    return NULL_TREE;
  tree fn = get_callee_fndecl (call);
  tree type = TREE_TYPE (t);
  if (!fn || !(INTEGRAL_TYPE_P (type) || SCALAR_FLOAT_TYPE_P (type)))
    return NULL_TREE;
  int nargs = call_expr_nargs (call);
  bool is_max = std_function_p (fn, "max"), is_min = std_function_p (fn, "min");
  bool is_clamp = std_function_p (fn, "clamp");
  if (!((is_max || is_min) && nargs == 2) && !(is_clamp && nargs == 3))
    return NULL_TREE;
  tree v[3];
  for (int k = 0; k < nargs; k++)
    if (!(v[k] = referred_value (CALL_EXPR_ARG (call, k), type, &w->vars)))
      return NULL_TREE;
  location_t loc = EXPR_LOCATION (call);
  tree r;
  if (is_max)
    r = build3_loc (loc, COND_EXPR, type,
                    build2 (LT_EXPR, boolean_type_node, v[0], v[1]), v[1],
                    v[0]);
  else if (is_min)
    r = build3_loc (loc, COND_EXPR, type,
                    build2 (LT_EXPR, boolean_type_node, v[1], v[0]), v[1],
                    v[0]);
  else
    r = build3_loc (
        loc, COND_EXPR, type, build2 (LT_EXPR, boolean_type_node, v[0], v[1]),
        v[1],
        build3 (COND_EXPR, type, build2 (LT_EXPR, boolean_type_node, v[2], v[0]),
                v[2], v[0]));
  *tp = r;
  *walk_subtrees = 0;
  w->changed = true;
  return NULL_TREE;
}

/* walk_tree callback: note in DATA's taken each variable whose address
   is taken.  */
static tree
address_taken (tree *tp, int *walk_subtrees, void *data)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if (TREE_CODE (*tp) == ADDR_EXPR && VAR_P (TREE_OPERAND (*tp, 0)))
    ((value_walk *) data)->taken.add (TREE_OPERAND (*tp, 0));
  return NULL_TREE;
}

bool
cxx_value_calls (tree fndecl)
{
  if (!cxx_p () || !DECL_SAVED_TREE (fndecl))
    return false;
  value_walk w;
  w.changed = false;
  walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), value_call, &w);
  if (!w.changed)
    return false;
  /* A variable whose address only the replaced calls took is a plain
     variable again.  */
  walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), address_taken,
                                &w);
  for (unsigned i = 0; i < w.vars.length (); i++)
    if (!w.taken.contains (w.vars[i]))
      TREE_ADDRESSABLE (w.vars[i]) = 0;
  return true;
}

/* The front end folded the function before PLUGIN_PRE_GENERICIZE, and
   folds again while genericizing, from a cache keyed by the trees that
   kept their place (the sum around a replaced call would come back as
   it was).  */
void
cxx_trees_changed (void)
{
  if (cxx_p () && clear_fold_cache)
    clear_fold_cache ();
}
