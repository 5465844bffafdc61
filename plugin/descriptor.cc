/* descriptor.cc -- <name>_gradcheck, what the runtime checker needs.

   Before:  void f (int n, const double *x, double *y);   and f_grad
   After:   const tg_kernel f_gradcheck = { 1, "f", 3, f.tg_params,
                                            TG_VOID, f.tg_fwd, f.tg_bwd,
                                            f.tg_ext };

   libtensorgrad's tg_gradcheck checks a forward/backward pair given a
   tg_kernel (include/tensorgrad.h): the parameters' names, kinds and
   roles, and three functions that call the forward, call the gradient,
   and give each array's number of elements.  For a synthesized gradient
   the plugin defines it, so that checking is one call:

       TG_DECLARE_GRADCHECK (f);
       tg_gradcheck (&f_gradcheck, args, NULL, &report);

   1. Lay out tg_param and tg_kernel as the header does (int fields, so
      -fshort-enums does not matter).
   2. Build the three trampolines as functions of the translation unit:
      forward (args, ret), backward (args, shadows, d_return), and
      extents (args, count), whose counts come from the forward program
      (te_tensor_extent); an array the kernel tests against NULL
      (te_tensor.optional) covers none when the caller passes NULL.
   3. Define the parameter table and <name>_gradcheck, with the kernel's
      linkage.

   In C++ the descriptor is declared in the kernel's namespace with its
   language linkage, as TG_DECLARE_GRADCHECK beside the kernel declares
   it (cxx.cc), and the trampolines are named after the kernel's
   assembler name, which tells overloads and namespaces apart.

   Limits: a kernel whose array extents cannot be told (a gather through
   an index array) gets no descriptor, nor do C++ kernels that overload
   one name (one <name>_gradcheck could not tell them apart); the
   dump says so.  */

#include "descriptor.h"
#include "emit.h"
#include "abi.h"
#include "cxx.h"

#include <string.h>

enum
{
  K_VOID,
  K_INT,
  K_PTR_INT,
  K_FLOAT,
  K_DOUBLE,
  K_PTR_FLOAT,
  K_PTR_DOUBLE
};
enum
{
  R_IN,
  R_OUT,
  R_INOUT,
  R_UNUSED
};

static tree
add_field (tree rec, const char *name, tree type, tree *chain)
{
  tree f = build_decl (UNKNOWN_LOCATION, FIELD_DECL, get_identifier (name),
                       type);
  DECL_CONTEXT (f) = rec;
  *chain = f;
  return f;
}

/* Step 1: a RECORD_TYPE with fields NAMES of TYPES.  */
static tree
record (const char *tag, int n, const char *const *names, tree *types)
{
  tree rec = make_node (RECORD_TYPE);
  tree fields = NULL_TREE, *tail = &fields;
  for (int i = 0; i < n; i++)
    {
      tree f = add_field (rec, names[i], types[i], tail);
      tail = &DECL_CHAIN (f);
    }
  TYPE_FIELDS (rec) = fields;
  TYPE_NAME (rec) = get_identifier (tag);
  layout_type (rec);
  return rec;
}

/* A new static function NAME of TYPE with parameters PARMS (NAMES), body
   built by the caller between begin and finish.  */
static tree
new_function (const char *name, tree type, int n, const char *const *names,
              tree *parms)
{
  tree decl = build_decl (input_location, FUNCTION_DECL, get_identifier (name),
                          type);
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  /* Made after GCC wrote the early debug information: none for it
     (see the gradient's, plugin/tensorgrad.cc).  */
  DECL_IGNORED_P (decl) = 1;
  TREE_USED (decl) = 1;
  tree result = build_decl (input_location, RESULT_DECL, NULL_TREE,
                            void_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_CONTEXT (result) = decl;
  DECL_RESULT (decl) = result;
  tree chain = NULL_TREE, *tail = &chain;
  tree t = TYPE_ARG_TYPES (type);
  for (int i = 0; i < n; i++, t = TREE_CHAIN (t))
    {
      parms[i] = build_decl (input_location, PARM_DECL,
                             get_identifier (names[i]), TREE_VALUE (t));
      DECL_ARG_TYPE (parms[i]) = TREE_VALUE (t);
      DECL_CONTEXT (parms[i]) = decl;
      TREE_USED (parms[i]) = 1;
      *tail = parms[i];
      tail = &DECL_CHAIN (parms[i]);
    }
  DECL_ARGUMENTS (decl) = chain;
  return decl;
}

static void
finish_function_body (tree decl, tree body)
{
  tree block = make_node (BLOCK);
  BLOCK_SUPERCONTEXT (block) = decl;
  DECL_INITIAL (decl) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, NULL_TREE, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (decl) = bind;
  tree saved = current_function_decl;
  push_struct_function (decl);
  gimplify_function_tree (decl);
  pop_cfun ();
  current_function_decl = saved;
  cgraph_node::add_new_function (decl, false);
}

/* Element I of ARRAY, a void *const * parameter.  */
static tree
slot (tree array, int i)
{
  tree p = fold_build_pointer_plus (
      array, size_int (i * tree_to_shwi (TYPE_SIZE_UNIT (ptr_type_node))));
  return build_fold_indirect_ref (fold_convert (build_pointer_type (ptr_type_node), p));
}

/* Argument I of the kernel, of TYPE, from ARGS: the scalar it points to
   or the pointer itself.  */
static tree
argument (tree args, int i, tree type)
{
  tree s = slot (args, i);
  if (POINTER_TYPE_P (type))
    return fold_convert (type, s);
  return build_fold_indirect_ref (fold_convert (build_pointer_type (type), s));
}

/* KERNEL's name and SUFFIX: its assembler name for the static objects
   (SUFFIX begins with '.'), which in C++ differs between overloads and
   namespaces.  */
static char *
derived_name (tree kernel, const char *suffix)
{
  tree id = suffix[0] == '.' && cxx_p () ? DECL_ASSEMBLER_NAME (kernel)
                                         : DECL_NAME (kernel);
  const char *k = IDENTIFIER_POINTER (id);
  char *buf = XNEWVEC (char, strlen (k) + strlen (suffix) + 1);
  strcpy (buf, k);
  strcat (buf, suffix);
  return buf;
}

/* Step 2: the forward trampoline.  */
static tree
forward_trampoline (tree kernel)
{
  tree type = build_function_type_list (void_type_node, ptr_type_node,
                                        ptr_type_node, NULL_TREE);
  const char *names[] = { "args", "ret" };
  tree parms[2];
  char *name = derived_name (kernel, ".tg_fwd");
  tree decl = new_function (name, type, 2, names, parms);
  free (name);
  auto_vec<tree> args;
  int i = 0;
  for (tree a = DECL_ARGUMENTS (kernel); a; a = DECL_CHAIN (a), i++)
    args.safe_push (argument (parms[0], i, TREE_TYPE (a)));
  tree call = build_call_expr_loc_array (input_location, kernel, args.length (),
                                    args.address ());
  tree rt = TREE_TYPE (TREE_TYPE (kernel));
  if (!VOID_TYPE_P (rt))
    call = build2 (MODIFY_EXPR, rt,
                   build_fold_indirect_ref (
                       fold_convert (build_pointer_type (rt), parms[1])),
                   call);
  tree body = alloc_stmt_list ();
  append_to_statement_list (call, &body);
  finish_function_body (decl, body);
  return decl;
}

/* Step 2: the backward trampoline.  */
static tree
backward_trampoline (tree kernel, tree grad)
{
  tree type = build_function_type_list (void_type_node, ptr_type_node,
                                        ptr_type_node, ptr_type_node,
                                        NULL_TREE);
  const char *names[] = { "args", "shadows", "d_return" };
  tree parms[3];
  char *name = derived_name (kernel, ".tg_bwd");
  tree decl = new_function (name, type, 3, names, parms);
  free (name);
  auto_vec<tree> args;
  int nk = list_length (DECL_ARGUMENTS (kernel));
  int i = 0, shadow = 0;
  for (tree t = TYPE_ARG_TYPES (TREE_TYPE (grad));
       t && !VOID_TYPE_P (TREE_VALUE (t)); t = TREE_CHAIN (t), i++)
    {
      tree type_i = TREE_VALUE (t);
      if (i < nk)
        args.safe_push (argument (parms[0], i, type_i));
      else if (POINTER_TYPE_P (type_i))
        args.safe_push (fold_convert (type_i, slot (parms[1], shadow++)));
      else /* d_return */
        args.safe_push (build_fold_indirect_ref (
            fold_convert (build_pointer_type (type_i), parms[2])));
    }
  tree call = build_call_expr_loc_array (input_location, grad, args.length (),
                                         args.address ());
  tree body = alloc_stmt_list ();
  append_to_statement_list (call, &body);
  finish_function_body (decl, body);
  return decl;
}

/* Step 2: the extents trampoline; NULL if an extent cannot be told,
   with *UNTOLD the array's name.  */
static tree
extents_trampoline (tree kernel, te_program *fwd, const char **untold)
{
  tree type = build_function_type_list (void_type_node, ptr_type_node,
                                        build_pointer_type (long_integer_type_node),
                                        NULL_TREE);
  const char *names[] = { "args", "count" };
  tree parms[2];
  int nk = fwd->nparams;
  /* The values of the integer parameters, read from ARGS.  */
  tree *values = XCNEWVEC (tree, nk + 1);
  char *name = derived_name (kernel, ".tg_ext");
  tree decl = new_function (name, type, 2, names, parms);
  free (name);
  int i = 0;
  for (tree a = DECL_ARGUMENTS (kernel); a && i < nk; a = DECL_CHAIN (a), i++)
    values[i] = INTEGRAL_TYPE_P (TREE_TYPE (a))
                    ? fold_convert (long_integer_type_node,
                                    argument (parms[0], i, TREE_TYPE (a)))
                    : build_int_cst (long_integer_type_node, 0);
  tree body = alloc_stmt_list ();
  bool ok = true;
  for (i = 0; i < nk && ok; i++)
    {
      te_param *q = &fwd->params[i];
      if (q->kind != TE_PK_PTR_FLOAT || !q->tensor)
        continue;
      te_node *n = te_tensor_extent (fwd, q->tensor);
      tree x = n ? emit_param_expr (n, values, nk) : NULL_TREE;
      if (!x)
        {
          ok = false;
          *untold = q->tensor->name;
          break;
        }
      /* An array the kernel tests against NULL covers nothing when it
         is NULL.  */
      if (q->tensor->optional)
        {
          tree s = slot (parms[0], i);
          x = fold_build3 (COND_EXPR, TREE_TYPE (x),
                           build2 (NE_EXPR, boolean_type_node, s,
                                   build_zero_cst (TREE_TYPE (s))),
                           x, build_zero_cst (TREE_TYPE (x)));
        }
      tree dst = build_fold_indirect_ref (fold_build_pointer_plus (
          parms[1], size_int (i * tree_to_shwi (TYPE_SIZE_UNIT (
                                      long_integer_type_node)))));
      append_to_statement_list (
          build2 (MODIFY_EXPR, long_integer_type_node, dst,
                  fold_convert (long_integer_type_node, x)),
          &body);
    }
  XDELETEVEC (values);
  if (!ok)
    return NULL_TREE;
  finish_function_body (decl, body);
  return decl;
}

static int
param_kind (const te_param *q)
{
  switch (q->kind)
    {
    case TE_PK_INT:
      return K_INT;
    case TE_PK_PTR_INT:
      return K_PTR_INT;
    case TE_PK_FLOAT:
      return q->type == TE_F32 ? K_FLOAT : K_DOUBLE;
    case TE_PK_PTR_FLOAT:
      return q->type == TE_F32 ? K_PTR_FLOAT : K_PTR_DOUBLE;
    }
  return K_INT;
}

static int
param_role (const te_param *q)
{
  if (q->kind == TE_PK_FLOAT)
    return R_IN;
  if (!q->tensor)
    return R_UNUSED;
  switch (q->tensor->role)
    {
    case TE_ROLE_INPUT:
      return R_IN;
    case TE_ROLE_OUTPUT:
      return R_OUT;
    case TE_ROLE_INOUT:
      return R_INOUT;
    case TE_ROLE_UNUSED:
    case TE_ROLE_TEMP:
      return R_UNUSED;
    }
  return R_UNUSED;
}

static tree
string_ptr (const char *s)
{
  return build_string_literal (strlen (s) + 1, s);
}

/* A read-only variable NAME of TYPE with INIT: static, or with the
   linkage (and in C++ the namespace) of KERNEL if that is not NULL.  */
static tree
define_const (const char *name, tree type, tree init, tree kernel)
{
  bool pub = kernel && TREE_PUBLIC (kernel);
  tree var = build_decl (input_location, VAR_DECL, get_identifier (name),
                         build_qualified_type (type, TYPE_QUAL_CONST));
  if (kernel)
    cxx_adopt (var, kernel);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = pub;
  TREE_READONLY (var) = 1;
  TREE_USED (var) = 1;
  DECL_ARTIFICIAL (var) = !pub;
  DECL_INITIAL (var) = init;
  DECL_PRESERVE_P (var) = pub;
  if (pub && DECL_ONE_ONLY (kernel))
    make_decl_one_only (var, DECL_ASSEMBLER_NAME (var));
  varpool_node::finalize_decl (var);
  return var;
}

/* Does another kernel share KERNEL's name in its namespace (a C++
   overload for another element type)?  */
static bool
overloaded (tree kernel)
{
  auto_vec<tree> fns;
  cxx_functions (kernel, DECL_NAME (kernel), &fns);
  for (unsigned i = 0; i < fns.length (); i++)
    if (fns[i] != kernel && abi_is_kernel (fns[i]))
      return true;
  return false;
}

/* The declaration of the descriptor NAME of KERNEL the user wrote
   (TG_DECLARE_GRADCHECK), or NULL.  */
static tree
declared_descriptor (tree kernel, const char *name)
{
  tree id = get_identifier (name);
  if (cxx_p ())
    return cxx_variable (kernel, id);
  symtab_node *prev = symtab_node::get_for_asmname (id);
  return prev && VAR_P (prev->decl) ? prev->decl : NULL_TREE;
}

bool
emit_descriptor (tree kernel, tree grad, te_program *fwd)
{
  if (overloaded (kernel))
    {
      if (dump_file)
        fprintf (dump_file, "  no descriptor: another kernel has the name "
                            "'%s'\n",
                 IDENTIFIER_POINTER (DECL_NAME (kernel)));
      return false;
    }
  const char *untold = "?";
  tree ext = extents_trampoline (kernel, fwd, &untold);
  if (!ext)
    {
      if (dump_file)
        fprintf (dump_file, "  no descriptor: the extent of '%s' cannot be "
                            "told\n",
                 untold);
      return false;
    }
  tree fwd_fn = forward_trampoline (kernel);
  tree bwd_fn = backward_trampoline (kernel, grad);

  /* Step 1.  */
  tree cstr = build_pointer_type (build_qualified_type (char_type_node,
                                                        TYPE_QUAL_CONST));
  const char *pnames[] = { "name", "kind", "role" };
  tree ptypes[] = { cstr, integer_type_node, integer_type_node };
  tree param_rec = record ("tg_param", 3, pnames, ptypes);
  const char *knames[] = { "version", "name", "nparams", "params", "ret",
                           "forward", "backward", "extents" };
  tree ktypes[] = { integer_type_node,
                    cstr,
                    integer_type_node,
                    build_pointer_type (build_qualified_type (param_rec,
                                                              TYPE_QUAL_CONST)),
                    integer_type_node,
                    build_pointer_type (TREE_TYPE (fwd_fn)),
                    build_pointer_type (TREE_TYPE (bwd_fn)),
                    build_pointer_type (TREE_TYPE (ext)) };
  tree kernel_rec = record ("tg_kernel", 8, knames, ktypes);

  /* Step 3: the parameter table.  */
  int n = fwd->nparams;
  tree arr_type = build_array_type_nelts (param_rec, n ? n : 1);
  vec<constructor_elt, va_gc> *elts = NULL;
  for (int i = 0; i < n; i++)
    {
      vec<constructor_elt, va_gc> *f = NULL;
      tree fld = TYPE_FIELDS (param_rec);
      CONSTRUCTOR_APPEND_ELT (f, fld, string_ptr (fwd->params[i].name));
      fld = DECL_CHAIN (fld);
      CONSTRUCTOR_APPEND_ELT (f, fld, build_int_cst (integer_type_node,
                                                     param_kind (&fwd->params[i])));
      fld = DECL_CHAIN (fld);
      CONSTRUCTOR_APPEND_ELT (f, fld, build_int_cst (integer_type_node,
                                                     param_role (&fwd->params[i])));
      CONSTRUCTOR_APPEND_ELT (elts, size_int (i),
                              build_constructor (param_rec, f));
    }
  char *pname = derived_name (kernel, ".tg_params");
  tree params = define_const (pname, arr_type,
                              build_constructor (arr_type, elts), NULL_TREE);
  free (pname);

  tree rt = TREE_TYPE (TREE_TYPE (kernel));
  int ret = VOID_TYPE_P (rt) ? K_VOID
            : TYPE_MAIN_VARIANT (rt) == float_type_node ? K_FLOAT
                                                          : K_DOUBLE;
  /* A declaration the user wrote (TG_DECLARE_GRADCHECK) is the one to
     define, with the header's type.  */
  char *kname = derived_name (kernel, "_gradcheck");
  tree user = declared_descriptor (kernel, kname);
  if (user && TREE_CODE (TREE_TYPE (user)) == RECORD_TYPE
      && list_length (TYPE_FIELDS (TREE_TYPE (user))) == 8)
    kernel_rec = TYPE_MAIN_VARIANT (TREE_TYPE (user));
  else
    user = NULL_TREE;
  vec<constructor_elt, va_gc> *k = NULL;
  tree fld = TYPE_FIELDS (kernel_rec);
  tree vals[] = {
    build_int_cst (integer_type_node, 1),
    string_ptr (IDENTIFIER_POINTER (DECL_NAME (kernel))),
    build_int_cst (integer_type_node, n),
    fold_convert (ktypes[3], build_fold_addr_expr (params)),
    build_int_cst (integer_type_node, ret),
    build_fold_addr_expr (fwd_fn),
    build_fold_addr_expr (bwd_fn),
    build_fold_addr_expr (ext),
  };
  for (int i = 0; i < 8; i++, fld = DECL_CHAIN (fld))
    CONSTRUCTOR_APPEND_ELT (k, fld, fold_convert (TREE_TYPE (fld), vals[i]));
  tree init = build_constructor (kernel_rec, k);
  if (user)
    {
      DECL_EXTERNAL (user) = 0;
      TREE_STATIC (user) = 1;
      DECL_INITIAL (user) = init;
      varpool_node::finalize_decl (user);
    }
  else
    define_const (kname, kernel_rec, init, kernel);
  free (kname);
  return true;
}
