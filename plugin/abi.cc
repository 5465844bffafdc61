/* abi.cc -- the gradient's signature, declared for same-file callers.

   Before:  __attribute__((differentiable))
            void f (int n, const double *x, double a, double *y);
   After:   void f_grad (int n, const double *x, double a, double *y,
                         double *d_x, double *d_a, double *d_y);

   1. When the front end has parsed a kernel, check its parameters and
      return type (an error at each one a kernel cannot take).
   2. Build the gradient's type from the kernel's parameter list alone
      (DESIGN.md section 2): the parameters, then one shadow per active
      parameter in order, its type the parameter's without const (a
      pointer for a by-value scalar), then d_return for a floating result.
   3. If the user declared <name>_grad already, compare the types shape by
      shape and report a mismatch at the user's prototype with the
      expected type; otherwise declare it in file scope, so that code
      after the kernel may call it without a prototype.
   4. Keep the declaration (a GC root) until the pass gives it a body.
   5. Remember the helpers: functions of scalars returning float or
      double that a kernel calls, directly or through other helpers.  The
      pass lifts them too, for their callers, and makes no gradient.

   lookup_name and pushdecl exist only in cc1: in lto1 they are missing,
   so they are weak here and step 3 is skipped there.

   In C++ (cxx.cc) step 3 waits until the file is parsed: the user's
   declarations of <name>_grad are looked up in the kernel's namespace
   (overloads of another kernel's gradient aside), a matching one is the
   gradient, one of the wrong type or language linkage an error; with
   none, the plugin's own declaration gets the kernel's namespace and
   language linkage, and declares nothing for later code.  */

#include "abi.h"
#include "cxx.h"

#include <string.h>

extern tree lookup_name (tree) __attribute__ ((weak));
extern tree pushdecl (tree) __attribute__ ((weak));
extern tree c_build_qualified_type (tree, int, tree, size_t)
  __attribute__ ((weak));

/* Kernel -> gradient declaration pairs, as a TREE_LIST.  */
static tree grad_list;
/* C++: kernels whose gradient is looked up once the file is parsed
   (resolve_pending), as a TREE_LIST.  */
static tree pending_list;
/* Function a kernel calls -> the <name>_grad declared when the kernel's
   body was parsed (for a function of another file), as a TREE_LIST.  */
static tree called_list;
/* Gradients abi_early_debug gave their early debug entry.  */
static tree early_debug_list;

const struct ggc_root_tab abi_gc_roots[] = {
  { &grad_list, 1, sizeof (grad_list), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &called_list, 1, sizeof (called_list), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &pending_list, 1, sizeof (pending_list), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &early_debug_list, 1, sizeof (early_debug_list), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

bool
abi_is_kernel (tree fndecl)
{
  return fndecl && TREE_CODE (fndecl) == FUNCTION_DECL
         && lookup_attribute ("differentiable", DECL_ATTRIBUTES (fndecl));
}

static bool
float_elem (tree type, te_type *elem)
{
  type = TYPE_MAIN_VARIANT (type);
  if (type == float_type_node)
    *elem = TE_F32;
  else if (type == double_type_node)
    *elem = TE_F64;
  else
    return false;
  return true;
}

bool
abi_classify (tree type, te_param_kind *kind, te_type *elem)
{
  if (float_elem (type, elem))
    {
      *kind = TE_PK_FLOAT;
      return true;
    }
  if (INTEGRAL_TYPE_P (type))
    {
      *kind = TE_PK_INT;
      *elem = TE_I64;
      return true;
    }
  if (TREE_CODE (type) != POINTER_TYPE)
    return false;
  tree pointee = TREE_TYPE (type);
  while (TREE_CODE (pointee) == ARRAY_TYPE)
    pointee = TREE_TYPE (pointee);
  if (float_elem (pointee, elem))
    {
      *kind = TE_PK_PTR_FLOAT;
      return true;
    }
  /* 8- and 16-bit integers and bools (a mask of unsigned char or bool)
     are read as the int they convert to; the emitter loads them at their
     own width.  Plain char is text.  */
  if (INTEGRAL_TYPE_P (pointee)
      && TYPE_MAIN_VARIANT (pointee) != char_type_node /* text */
      && (TYPE_PRECISION (pointee) >= 8 || TREE_CODE (pointee) == BOOLEAN_TYPE)
      && TYPE_PRECISION (pointee) <= 64)
    {
      *kind = TE_PK_PTR_INT;
      *elem = TYPE_PRECISION (pointee) == 64 ? TE_I64
              : TYPE_PRECISION (pointee) == 32 && TYPE_UNSIGNED (pointee)
                  ? TE_U32
                  : TE_I32;
      return true;
    }
  return false;
}

/* Step 1: errors for what a kernel cannot take.  */
static bool
check_signature (tree fndecl)
{
  bool ok = true;
  tree rt = TREE_TYPE (TREE_TYPE (fndecl));
  te_type elem;
  if (!VOID_TYPE_P (rt) && !float_elem (rt, &elem))
    {
      error_at (DECL_SOURCE_LOCATION (fndecl),
                "differentiable function %qD must return void, float or "
                "double",
                fndecl);
      /* An integer helper of the indices (imax, a clamp: integers in,
         an integer out): marking it does not make a kernel take its
         calls.  */
      bool ints = INTEGRAL_TYPE_P (rt);
      for (tree a = DECL_ARGUMENTS (fndecl); a && ints; a = DECL_CHAIN (a))
        ints = INTEGRAL_TYPE_P (TREE_TYPE (a));
      if (ints)
        inform (DECL_SOURCE_LOCATION (fndecl),
                "%qD returns %qT: an integer function is not "
                "differentiated, and a kernel does not take a call of one "
                "in an index either; drop the attribute and write its value "
                "where it is used (a macro or a conditional expression)",
                fndecl, rt);
      ok = false;
    }
  if (stdarg_p (TREE_TYPE (fndecl)))
    {
      error_at (DECL_SOURCE_LOCATION (fndecl),
                "differentiable function %qD cannot be variadic", fndecl);
      ok = false;
    }
  for (tree a = DECL_ARGUMENTS (fndecl); a; a = DECL_CHAIN (a))
    {
      te_param_kind kind;
      if (!abi_classify (TREE_TYPE (a), &kind, &elem))
        {
          error_at (DECL_SOURCE_LOCATION (a),
                    "parameter %qD has unsupported type %qT", a,
                    TREE_TYPE (a));
          inform (DECL_SOURCE_LOCATION (a),
                  "a differentiable function takes integers, %<float%> or "
                  "%<double%> values, and pointers to them");
          ok = false;
        }
    }
  return ok;
}

/* Step 2: the shadow type of a parameter of TYPE.  */
/* TYPE without its qualifiers, an array's on its elements as C has them
   (c_build_qualified_type, which exists in cc1 only: lto1 rebuilds the
   array types itself).  */
static tree
unqualified (tree type)
{
  if (c_build_qualified_type)
    return c_build_qualified_type (type, TYPE_UNQUALIFIED, NULL_TREE, 0);
  if (TREE_CODE (type) == ARRAY_TYPE)
    return build_array_type (unqualified (TREE_TYPE (type)),
                             TYPE_DOMAIN (type));
  return TYPE_MAIN_VARIANT (type);
}

static tree
shadow_type (tree type)
{
  if (TREE_CODE (type) == POINTER_TYPE)
    return build_pointer_type (unqualified (TREE_TYPE (type)));
  return build_pointer_type (TYPE_MAIN_VARIANT (type));
}

/* The parameter types of FNDECL: of its PARM_DECLs when it has a body,
   else of its prototype.  */
static void
param_types (tree fndecl, auto_vec<tree> *types)
{
  if (DECL_ARGUMENTS (fndecl))
    for (tree a = DECL_ARGUMENTS (fndecl); a; a = DECL_CHAIN (a))
      types->safe_push (TREE_TYPE (a));
  else
    for (tree t = TYPE_ARG_TYPES (TREE_TYPE (fndecl));
         t && !VOID_TYPE_P (TREE_VALUE (t)); t = TREE_CHAIN (t))
      types->safe_push (TREE_VALUE (t));
}

static tree
grad_type (tree fndecl)
{
  auto_vec<tree> types, params;
  te_param_kind kind;
  te_type elem;
  param_types (fndecl, &params);
  for (unsigned i = 0; i < params.length (); i++)
    types.safe_push (params[i]);
  for (unsigned i = 0; i < params.length (); i++)
    if (abi_classify (params[i], &kind, &elem)
        && (kind == TE_PK_FLOAT || kind == TE_PK_PTR_FLOAT))
      types.safe_push (shadow_type (params[i]));
  tree rt = TREE_TYPE (TREE_TYPE (fndecl));
  if (!VOID_TYPE_P (rt))
    types.safe_push (TYPE_MAIN_VARIANT (rt));
  return build_function_type_array (void_type_node, types.length (),
                                    types.address ());
}

/* Do A and B have the same shape: the same scalar, or pointers to the
   same shape with the same qualifiers (array bounds are not compared)?  */
static bool
same_shape (tree a, tree b)
{
  if (TREE_CODE (a) != TREE_CODE (b))
    return false;
  if (TREE_CODE (a) == POINTER_TYPE || TREE_CODE (a) == ARRAY_TYPE)
    {
      tree ea = TREE_TYPE (a), eb = TREE_TYPE (b);
      if (TYPE_QUALS (ea) != TYPE_QUALS (eb))
        return false;
      return same_shape (ea, eb);
    }
  return TYPE_MAIN_VARIANT (a) == TYPE_MAIN_VARIANT (b);
}

static bool
same_signature (tree user, tree expected)
{
  if (!same_shape (TREE_TYPE (user), TREE_TYPE (expected)))
    return false;
  tree a = TYPE_ARG_TYPES (user), b = TYPE_ARG_TYPES (expected);
  if (!a)
    return true; /* an old-style declaration f_grad () */
  for (; a && b; a = TREE_CHAIN (a), b = TREE_CHAIN (b))
    if (!same_shape (TREE_VALUE (a), TREE_VALUE (b)))
      return false;
  return !a && !b;
}

static tree
grad_identifier (tree fndecl)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  char *buf = XALLOCAVEC (char, strlen (name) + 6);
  strcpy (buf, name);
  strcat (buf, "_grad");
  return get_identifier (buf);
}

/* The value of KEY in association list LIST (a TREE_LIST), or NULL.  */
static tree
assoc (tree list, tree key)
{
  for (tree l = list; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == key)
      return TREE_VALUE (l);
  return NULL_TREE;
}

static tree
find_grad (tree fndecl)
{
  return assoc (grad_list, fndecl);
}

static tree
new_grad_decl (tree fndecl, tree type)
{
  tree decl = build_decl (DECL_SOURCE_LOCATION (fndecl), FUNCTION_DECL,
                          grad_identifier (fndecl), type);
  TREE_PUBLIC (decl) = TREE_PUBLIC (fndecl);
  /* Until the pass gives it a body: an external declaration, except that
     the C front end warns of a static one "used but never defined"; a
     static one is a definition to come, whose warning is suppressed.  */
  DECL_EXTERNAL (decl) = TREE_PUBLIC (fndecl);
  if (!TREE_PUBLIC (fndecl))
    suppress_warning (decl, OPT_Wunused);
  TREE_USED (decl) = 1;
  DECL_CONTEXT (decl) = DECL_CONTEXT (fndecl);
  return decl;
}

/* Functions of this file that a kernel calls, directly or through
   another such function, for a value of scalar parameters: lifted like
   kernels, their value substituted where they are called, no gradient of
   their own.  */
static hash_set<tree> *helpers;

bool
abi_helper_shape (tree fn)
{
  if (TREE_CODE (fn) != FUNCTION_DECL || abi_is_kernel (fn)
      || fndecl_built_in_p (fn) || DECL_ARTIFICIAL (fn) || !DECL_NAME (fn))
    return false;
  te_type elem;
  tree type = TREE_TYPE (fn);
  if (!float_elem (TREE_TYPE (type), &elem) || !prototype_p (type)
      || stdarg_p (type))
    return false;
  for (tree a = TYPE_ARG_TYPES (type); a && !VOID_TYPE_P (TREE_VALUE (a));
       a = TREE_CHAIN (a))
    if (!float_elem (TREE_VALUE (a), &elem)
        && !INTEGRAL_TYPE_P (TREE_VALUE (a)))
      return false;
  return true;
}

bool
abi_is_helper (tree fndecl)
{
  return helpers && helpers->contains (fndecl);
}

static tree record_call (tree *tp, int *, void *);

/* FN, called by a kernel or a helper, is a helper: so are the functions
   it calls, found now if its body is parsed, else when it is.  */
static void
add_helper (tree fn)
{
  if (!helpers)
    helpers = new hash_set<tree>;
  if (helpers->add (fn))
    return;
  if (DECL_SAVED_TREE (fn))
    walk_tree_without_duplicates (&DECL_SAVED_TREE (fn), record_call, NULL);
}

/* walk_tree callback: record the gradient declared for a function a
   kernel calls, while the file scope can still be searched by name, and
   the helpers it calls.  */
static tree
record_call (tree *tp, int *, void *)
{
  if (TREE_CODE (*tp) != CALL_EXPR)
    return NULL_TREE;
  tree fn = get_callee_fndecl (*tp);
  if (!fn || fndecl_built_in_p (fn) || !DECL_NAME (fn))
    return NULL_TREE;
  if (abi_helper_shape (fn))
    add_helper (fn);
  if (assoc (called_list, fn))
    return NULL_TREE;
  tree g = NULL_TREE;
  if (cxx_p ())
    {
      /* In FN's namespace: the overload of the gradient's type, else
         another (lift.cc then reports its type).  */
      auto_vec<tree> fns;
      cxx_functions (fn, grad_identifier (fn), &fns);
      tree type = fns.length () ? grad_type (fn) : NULL_TREE;
      for (unsigned i = 0; i < fns.length () && !g; i++)
        if (same_signature (TREE_TYPE (fns[i]), type))
          g = fns[i];
      if (!g && fns.length ())
        g = fns[0];
    }
  else if (lookup_name)
    g = lookup_name (grad_identifier (fn));
  if (g && TREE_CODE (g) == FUNCTION_DECL)
    called_list = tree_cons (fn, g, called_list);
  return NULL_TREE;
}

tree
abi_declared_grad (tree fndecl)
{
  return assoc (called_list, fndecl);
}

/* FN, a declaration of a gradient the plugin defines later: GCC warns
   "used but never defined" of an internal function without a body
   before the pass gives it one.  */
static void
quiet_undefined (tree fn)
{
  if (!TREE_PUBLIC (fn))
    suppress_warning (fn, OPT_Wunused);
}

/* C++: quiet the declarations of the gradient of FNDECL written so far
   (of its type, in its namespace).  */
static void
quiet_cxx_grads (tree fndecl)
{
  auto_vec<tree> fns;
  cxx_functions (fndecl, grad_identifier (fndecl), &fns);
  tree type = fns.length () ? grad_type (fndecl) : NULL_TREE;
  for (unsigned i = 0; i < fns.length (); i++)
    if (same_signature (TREE_TYPE (fns[i]), type))
      quiet_undefined (fns[i]);
}

void
abi_finish_decl (tree decl)
{
  if (!cxx_p () || TREE_CODE (decl) != FUNCTION_DECL || TREE_PUBLIC (decl)
      || !DECL_NAME (decl))
    return;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
  size_t len = strlen (name);
  if (len <= 5 || strcmp (name + len - 5, "_grad"))
    return;
  auto_vec<tree> kernels;
  cxx_functions (decl, get_identifier_with_length (name, len - 5), &kernels);
  for (unsigned i = 0; i < kernels.length (); i++)
    if (abi_is_kernel (kernels[i]))
      quiet_cxx_grads (kernels[i]);
}

tree
abi_expected_grad_type (tree fndecl, tree grad)
{
  tree type = grad_type (fndecl);
  return same_signature (TREE_TYPE (grad), type) ? NULL_TREE : type;
}

void
abi_declare_grad (tree fndecl)
{
  if ((abi_is_kernel (fndecl) || abi_is_helper (fndecl))
      && DECL_SAVED_TREE (fndecl))
    walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), record_call,
                                  NULL);
  if (!abi_is_kernel (fndecl) || find_grad (fndecl))
    return;
  if (cxx_refuse_kernel (fndecl) || !check_signature (fndecl))
    {
      grad_list = tree_cons (fndecl, error_mark_node, grad_list);
      return;
    }
  if (cxx_p ())
    {
      /* Declarations after the kernel count too: looked up later.  */
      quiet_cxx_grads (fndecl);
      pending_list = tree_cons (fndecl, NULL_TREE, pending_list);
      return;
    }
  tree type = grad_type (fndecl);
  tree decl = NULL_TREE;
  tree existing = lookup_name ? lookup_name (grad_identifier (fndecl))
                              : NULL_TREE;
  if (existing && TREE_CODE (existing) == FUNCTION_DECL)
    {
      if (!same_signature (TREE_TYPE (existing), type))
        {
          error_at (DECL_SOURCE_LOCATION (existing),
                    "prototype of %qD does not match the gradient of %qD",
                    existing, fndecl);
          inform (DECL_SOURCE_LOCATION (existing), "expected %qT", type);
          grad_list = tree_cons (fndecl, error_mark_node, grad_list);
          return;
        }
      decl = existing;
      /* The C front end's own check of a static function used but not
         defined looks at DECL_EXTERNAL alone: as for new_grad_decl's.  */
      if (!TREE_PUBLIC (decl))
        DECL_EXTERNAL (decl) = 0;
      quiet_undefined (decl);
    }
  else if (pushdecl)
    decl = pushdecl (new_grad_decl (fndecl, type));
  if (decl)
    grad_list = tree_cons (fndecl, decl, grad_list);
}

/* Is the declaration of FN, a function named like FNDECL's gradient in
   its namespace, the gradient of another kernel of FNDECL's name (an
   overload for another element type)?  */
static bool
other_kernels_grad (tree fndecl, tree fn)
{
  auto_vec<tree> kernels;
  cxx_functions (fndecl, DECL_NAME (fndecl), &kernels);
  for (unsigned i = 0; i < kernels.length (); i++)
    if (kernels[i] != fndecl && abi_is_kernel (kernels[i])
        && same_signature (TREE_TYPE (fn), grad_type (kernels[i])))
      return true;
  return false;
}

/* C++, once the file is parsed: the user's declaration of the gradient
   of FNDECL, of TYPE, or a new one with FNDECL's namespace and language
   linkage (cxx.cc); error_mark_node after an error at a declaration of
   the gradient's name whose type or linkage is not the gradient's.  */
static tree
cxx_grad_decl (tree fndecl, tree type)
{
  auto_vec<tree> fns;
  cxx_functions (fndecl, grad_identifier (fndecl), &fns);
  tree wrong = NULL_TREE;
  for (unsigned i = 0; i < fns.length (); i++)
    {
      tree fn = fns[i];
      if (!same_signature (TREE_TYPE (fn), type))
        {
          if (!wrong && !other_kernels_grad (fndecl, fn))
            wrong = fn;
          continue;
        }
      if (cxx_c_linkage (fn) == cxx_c_linkage (fndecl))
        return fn;
      auto_diagnostic_group d;
      location_t loc = DECL_SOURCE_LOCATION (fn);
      if (cxx_c_linkage (fndecl))
        {
          error_at (loc, "prototype of %qD has C++ language linkage; the "
                         "gradient of %qD, declared %<extern \"C\"%>, has "
                         "C linkage",
                    fn, fndecl);
          inform (loc, "declare it %<extern \"C\"%>, as the header "
                       "%<-fplugin-arg-tensorgrad-header=FILE%> writes does");
        }
      else
        {
          error_at (loc, "prototype of %qD has C language linkage; the "
                         "gradient of %qD has C++ linkage, as %qD has",
                    fn, fndecl, fndecl);
          inform (loc, "declare it without %<extern \"C\"%>, or the "
                       "kernel with it");
        }
      return error_mark_node;
    }
  if (wrong)
    {
      auto_diagnostic_group d;
      error_at (DECL_SOURCE_LOCATION (wrong),
                "prototype of %qD does not match the gradient of %qD", wrong,
                fndecl);
      inform (DECL_SOURCE_LOCATION (wrong), "expected %qT", type);
      return error_mark_node;
    }
  tree decl = new_grad_decl (fndecl, type);
  cxx_adopt (decl, fndecl);
  return decl;
}

/* C++: look up the gradients of the kernels abi_declare_grad saw, now
   that the whole file is parsed.  */
static void
resolve_pending (void)
{
  tree list = nreverse (pending_list);
  pending_list = NULL_TREE;
  for (tree l = list; l; l = TREE_CHAIN (l))
    abi_grad_decl (TREE_PURPOSE (l));
}

void
abi_early_debug (tree fndecl)
{
  if (debug_info_level <= DINFO_LEVEL_NONE || seen_error ()
      || !abi_is_kernel (fndecl))
    return;
  tree grad = abi_grad_decl (fndecl);
  if (!grad || abi_has_early_debug (grad))
    return;
  (*debug_hooks->early_global_decl) (grad);
  early_debug_list = tree_cons (NULL_TREE, grad, early_debug_list);
}

bool
abi_has_early_debug (tree grad)
{
  for (tree l = early_debug_list; l; l = TREE_CHAIN (l))
    if (TREE_VALUE (l) == grad)
      return true;
  return false;
}

tree
abi_kernel_of (tree grad)
{
  resolve_pending ();
  for (tree l = grad_list; l; l = TREE_CHAIN (l))
    if (TREE_VALUE (l) == grad)
      return TREE_PURPOSE (l);
  return NULL_TREE;
}

tree
abi_grad_decl (tree fndecl)
{
  tree decl = find_grad (fndecl);
  if (decl == error_mark_node)
    return NULL_TREE;
  if (decl)
    return decl;
  if (cxx_refuse_kernel (fndecl) || !check_signature (fndecl))
    decl = error_mark_node;
  else if (cxx_p ())
    decl = cxx_grad_decl (fndecl, grad_type (fndecl));
  else
    decl = new_grad_decl (fndecl, grad_type (fndecl));
  grad_list = tree_cons (fndecl, decl, grad_list);
  return decl == error_mark_node ? NULL_TREE : decl;
}

tree
te_tree_type (te_type t)
{
  switch (t)
    {
    case TE_BOOL:
      return boolean_type_node;
    case TE_I32:
      return integer_type_node;
    case TE_U32:
      return unsigned_type_node;
    case TE_I64:
      return long_integer_type_node;
    case TE_F32:
      return float_type_node;
    case TE_F64:
      return double_type_node;
    }
  return NULL_TREE;
}
