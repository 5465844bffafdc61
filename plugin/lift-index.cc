/* lift-index.cc -- integers and addresses of a kernel's GIMPLE: the
   counters of its loops (through SCEV), the tensors its pointers and
   local arrays are, and each access's element index (see lift.cc for the
   design of the lifter).  */

#include "lift-internal.h"

#include <math.h>
#include <string.h>

using namespace tg_lift;

namespace tg_lift
{
/* Report an error at the current statement, once per statement.  */
te_node *
fail (lifter *l, const char *msg)
{
  if (!l->failed && !already_reported (l, l->loc))
    error_at (l->loc, "%s", msg);
  l->failed = true;
  return NULL;
}

/* Was an error reported at LOC?  */
bool
reported_at (const lifter *l, location_t loc)
{
  for (int k = 0; k < l->nreported; k++)
    if (l->reported[k] == loc)
      return true;
  return false;
}

/* Was an error reported at LOC already?  Records LOC.  A construct that
   the lifter meets once per use (a switch, once per edge out of it) is
   reported once.  */
bool
already_reported (lifter *l, location_t loc)
{
  if (reported_at (l, loc))
    return true;
  if (l->nreported < (int) ARRAY_SIZE (l->reported))
    l->reported[l->nreported++] = loc;
  return false;
}

/* Is G a call of __builtin_expect, which returns its first argument
   (a hint to the optimizer, lifted as that argument)?  */
bool
expect_call_p (const gimple *g)
{
  if (!is_gimple_call (g))
    return false;
  const gcall *c = as_a<const gcall *> (g);
  if (gimple_call_internal_p (c))
    return gimple_call_internal_fn (c) == IFN_BUILTIN_EXPECT;
  return gimple_call_builtin_p (c, BUILT_IN_EXPECT)
         || gimple_call_builtin_p (c, BUILT_IN_EXPECT_WITH_PROBABILITY);
}

/* Refuse integer NAME, defined by DEF, which is neither an assignment
   nor a counter: say what it is.  */
static te_node *
fail_int_def (lifter *l, tree name, gimple *def)
{
  if (is_gimple_call (def) && gimple_has_location (def)
      && reported_at (l, gimple_location (def)))
    {
      l->failed = true; /* the call was refused where it stands */
      return NULL;
    }
  tree var = SSA_NAME_VAR (name);
  if (gimple_code (def) == GIMPLE_PHI && var && DECL_NAME (var)
      && !DECL_IGNORED_P (var))
    {
      if (!l->failed && !already_reported (l, l->loc))
        {
          error_at (l->loc, "integer %qD is changed inside a loop and read "
                            "in it, and is not its counter; such integers "
                            "are not supported yet",
                    var);
          inform (l->loc, "an integer a loop counts (%<c++%>, %<c += "
                          "m[i]%>) may be used after the loop");
        }
      l->failed = true;
      return NULL;
    }
  return fail (l, "index of this access is not affine in the loop counters");
}

/* Refuse the conversion of a floating-point value to an integer, made by
   DEF (NULL: in the expression being lifted), at the conversion.  */
static te_node *
fail_float_to_int (lifter *l, gimple *def)
{
  location_t loc = def && gimple_has_location (def) ? gimple_location (def)
                                                     : l->loc;
  if (!l->failed && !already_reported (l, loc))
    {
      error_at (loc, "conversion to an integer of a floating-point value "
                     "cannot be differentiated");
      inform (loc, "to round a value, use %<trunc%>, %<floor%>, %<ceil%> or "
                   "%<round%>, which keep it floating (derivative 0); an "
                   "index, a loop bound or a switch cannot be computed from "
                   "floating-point values");
    }
  l->failed = true;
  return NULL;
}

/* ---- types -------------------------------------------------------------- */

bool
float_te_type (tree type, te_type *out)
{
  type = TYPE_MAIN_VARIANT (type);
  if (type == float_type_node)
    *out = TE_F32;
  else if (type == double_type_node)
    *out = TE_F64;
  else
    return false;
  return true;
}

/* The TE type that holds values of integer TYPE: 64-bit for every signed
   type (a signed overflow is undefined in C, so no wrap is needed) and for
   64-bit unsigned ones; TE_U32 for 32-bit unsigned types, which wrap.  */
bool
int_te_type (tree type, te_type *out)
{
  if (TREE_CODE (type) == BOOLEAN_TYPE)
    *out = TE_BOOL;
  else if (!INTEGRAL_TYPE_P (type))
    return false;
  else if (TYPE_UNSIGNED (type) && TYPE_PRECISION (type) == 32)
    *out = TE_U32;
  else if (TYPE_UNSIGNED (type) && TYPE_PRECISION (type) < 64)
    return false;
  else
    *out = TE_I64;
  return true;
}

/* ---- tensors ------------------------------------------------------------ */

const char *
decl_name (tree decl)
{
  return DECL_NAME (decl) ? IDENTIFIER_POINTER (DECL_NAME (decl)) : "<anon>";
}

/* The tensor that pointer parameter PARM points to.  */
te_tensor *
param_tensor (lifter *l, tree parm)
{
  te_tensor **slot = l->tensors->get (parm);
  if (slot)
    return *slot;
  int index = 0;
  for (tree a = DECL_ARGUMENTS (l->fun->decl); a && a != parm;
       a = DECL_CHAIN (a))
    index++;
  te_param *q = &l->p->params[index];
  te_tensor *t
      = te_program_add_tensor (l->p, q->name, q->type, TE_TK_PARAM, index,
                               DECL_SOURCE_LOCATION (parm));
  l->tensors->put (parm, t);
  return t;
}

/* The tensor of local array KEY (a VAR_DECL, or the SSA pointer of a
   variable-length one) of type TYPE and SIZE bytes.  */
te_tensor *
local_tensor (lifter *l, tree key, tree type, tree size)
{
  te_tensor **slot = l->tensors->get (key);
  if (slot)
    return *slot;
  tree elem = type;
  while (TREE_CODE (elem) == ARRAY_TYPE)
    elem = TREE_TYPE (elem);
  te_type et;
  if (!float_te_type (elem, &et))
    {
      error_at (l->loc, "local array %qs of type %qT is not supported; a "
                        "differentiable function may use local arrays of "
                        "float or double",
                SSA_VAR_P (key) && DECL_P (key) ? decl_name (key)
                : SSA_NAME_VAR (key)            ? decl_name (SSA_NAME_VAR (key))
                                                : "<anon>",
                elem);
      l->failed = true;
      return NULL;
    }
  te_node *bytes = lift_int (l, size);
  if (!bytes)
    return NULL;
  tree name = DECL_P (key) ? key : SSA_NAME_VAR (key);
  /* GCC names a variable-length array's pointer NAME.N: show NAME.  */
  char buf[128];
  snprintf (buf, sizeof buf, "%s", name ? decl_name (name) : "tmp");
  char *dot = strrchr (buf, '.');
  if (dot && dot > buf && dot[1] && strspn (dot + 1, "0123456789")
                                        == strlen (dot + 1))
    *dot = 0;
  te_tensor *t = te_program_add_tensor (
      l->p, buf, et, TE_TK_LOCAL, -1,
      name ? DECL_SOURCE_LOCATION (name) : l->loc);
  t->size = te_canon_int (l->ctx, te_div (l->ctx, te_cast (l->ctx, TE_I64, bytes),
                                          te_int (l->ctx, tree_to_shwi (
                                                              TYPE_SIZE_UNIT (elem)))));
  /* Where it is, for plugin/forward.cc's calls.  */
  t->decl = key;
  l->tensors->put (key, t);
  return t;
}

/* ---- variables of static storage ---------------------------------------

   A kernel may read a constant table (a static const array or scalar with
   its initializer in sight, at file scope or in a function) and a global
   integer (a size or an index term).  Either is a TE_TK_STATIC tensor at
   the variable's own address, with no adjoint: a constant's values are
   fixed, and an integer has no derivative.  The lifter copies the
   initializer's elements into the program, for the interpreter (and the
   check); the gradient reads the variable itself when it runs, as the
   forward left it.  A floating global that may change (or a constant
   whose values this file does not show) is refused: its gradient would
   have nowhere to go.  */

/* Is DECL a function's static rather than a file-scope variable?  */
static bool
static_local_p (tree decl)
{
  return DECL_CONTEXT (decl)
         && TREE_CODE (DECL_CONTEXT (decl)) == FUNCTION_DECL;
}

/* Refuse, at L's statement, a read of DECL, of static storage, whose
   values may change or are not visible (CONSTANT: it is read-only).  */
static void
refuse_static (lifter *l, tree decl, bool constant)
{
  const char *where = static_local_p (decl) ? "static" : "global";
  bool array = TREE_CODE (TREE_TYPE (decl)) == ARRAY_TYPE;
  if (!l->failed && !already_reported (l, l->loc))
    {
      if (constant)
        error_at (l->loc, "the values of constant %s %qD are not visible "
                          "here; its initializer must be in this file",
                  array ? "table" : "variable", decl);
      else
        error_at (l->loc, "%s %s %qD, which the kernel reads, cannot be "
                          "differentiated",
                  where, array ? "array" : "variable", decl);
      inform (DECL_SOURCE_LOCATION (decl),
              constant ? G_("pass %qD to the kernel as a parameter, or "
                            "define it in this file")
                       : G_("pass %qD to the kernel as a parameter, so that "
                            "its gradient has somewhere to go"),
              decl);
    }
  l->failed = true;
}

/* The TE type of the elements ELEM of a static variable: float, double,
   or an integer of 32 or 64 bits, as an index array's.  */
static bool
static_elem_type (tree elem, te_type *out)
{
  if (float_te_type (elem, out))
    return true;
  if (!INTEGRAL_TYPE_P (elem) || TREE_CODE (elem) == BOOLEAN_TYPE
      || (TYPE_PRECISION (elem) != 32 && TYPE_PRECISION (elem) != 64))
    return false;
  *out = TYPE_PRECISION (elem) == 64 ? TE_I64
         : TYPE_UNSIGNED (elem)      ? TE_U32
                                     : TE_I32;
  return true;
}

/* The value of constant V (a REAL_CST or an INTEGER_CST) into *OUT;
   false for anything else, or an integer a double does not hold.  */
static bool
cst_value (tree v, double *out)
{
  if (v && TREE_CODE (v) == REAL_CST && REAL_VALUE_ISNAN (TREE_REAL_CST (v)))
    {
      *out = NAN;
      return true;
    }
  if (v && TREE_CODE (v) == REAL_CST && REAL_VALUE_ISINF (TREE_REAL_CST (v)))
    {
      *out = REAL_VALUE_NEGATIVE (TREE_REAL_CST (v)) ? -HUGE_VAL : HUGE_VAL;
      return true;
    }
  if (v && TREE_CODE (v) == REAL_CST)
    {
      char buf[64];
      real_to_hexadecimal (buf, TREE_REAL_CST_PTR (v), sizeof buf, 0, 1);
      *out = strtod (buf, NULL);
      return true;
    }
  if (v && TREE_CODE (v) == INTEGER_CST && tree_fits_shwi_p (v)
      && wi::abs (wi::to_wide (v)).to_shwi () < ((HOST_WIDE_INT) 1 << 53))
    {
      *out = (double) tree_to_shwi (v);
      return true;
    }
  return false;
}

/* Fill VALS[BASE ...] from CTOR, the initializer of an object of TYPE
   (an array, nested, of ELEM, or ELEM itself) that starts at element
   BASE of N; VALS is zero where CTOR leaves elements out.  False when
   CTOR is not a CONSTRUCTOR of constants (a string, an expression).  */
static bool
walk_ctor (tree ctor, tree type, tree elem, int64_t base, int64_t n,
           double *vals)
{
  if (TREE_CODE (type) != ARRAY_TYPE)
    return base < n && cst_value (ctor, &vals[base]);
  tree sub = TREE_TYPE (type), dom = TYPE_DOMAIN (type);
  if (TREE_CODE (ctor) != CONSTRUCTOR || !dom || !TYPE_MIN_VALUE (dom)
      || !tree_fits_shwi_p (TYPE_MIN_VALUE (dom)))
    return false;
  HOST_WIDE_INT lo = tree_to_shwi (TYPE_MIN_VALUE (dom));
  int64_t sub_n = tree_to_uhwi (TYPE_SIZE_UNIT (sub))
                  / tree_to_uhwi (TYPE_SIZE_UNIT (elem));
  int64_t next = 0;
  unsigned HOST_WIDE_INT ix;
  tree idx, val;
  FOR_EACH_CONSTRUCTOR_ELT (CONSTRUCTOR_ELTS (ctor), ix, idx, val)
    {
      tree a = idx && TREE_CODE (idx) == RANGE_EXPR ? TREE_OPERAND (idx, 0)
                                                    : idx;
      tree b = idx && TREE_CODE (idx) == RANGE_EXPR ? TREE_OPERAND (idx, 1)
                                                    : idx;
      if (idx && (!tree_fits_shwi_p (a) || !tree_fits_shwi_p (b)))
        return false;
      int64_t first = idx ? tree_to_shwi (a) - lo : next;
      int64_t last = idx ? tree_to_shwi (b) - lo : next;
      for (int64_t k = first; k <= last; k++)
        if (k < 0 || !walk_ctor (val, sub, elem, base + k * sub_n, n, vals))
          return false;
      next = last + 1;
    }
  return true;
}

/* The N elements ELEM of DECL (of TYPE), from its initializer CTOR
   (NULL: zeros), into VALS; false when one cannot be read.  A
   CONSTRUCTOR is walked once; anything else is read element by
   element.  */
static bool
read_initializer (tree decl, tree type, tree ctor, tree elem, int64_t n,
                  double *vals)
{
  for (int64_t k = 0; k < n; k++)
    vals[k] = 0;
  if (!ctor || walk_ctor (ctor, type, elem, 0, n, vals))
    return true;
  unsigned HOST_WIDE_INT bits = tree_to_uhwi (TYPE_SIZE (elem));
  for (int64_t k = 0; k < n; k++)
    if (!cst_value (fold_ctor_reference (elem, ctor, k * bits, bits, decl),
                    &vals[k]))
      return false;
  return true;
}

/* The most elements of a static variable the lifter copies.  */
#define MAX_STATIC_ELEMS 65536

/* The initial elements of DECL, N of type ELEM, into VALS: for a
   constant (*CONSTANT), its initializer, which must be visible
   (CTOR_FOR_FOLDING); otherwise the initializer it has here, if any, and
   *CONSTANT is cleared.  False when there are none to read.  */
static bool
static_values (tree decl, tree ctor, tree elem, int64_t n, bool *constant,
               double *vals)
{
  if (ctor != error_mark_node)
    return read_initializer (decl, TREE_TYPE (decl), ctor, elem, n, vals);
  /* A global integer: the interpreter starts from its initializer, if it
     has one here; the gradient reads the variable.  */
  *constant = false;
  tree init = DECL_INITIAL (decl);
  return !DECL_EXTERNAL (decl)
         && read_initializer (decl, TREE_TYPE (decl),
                              init && init != error_mark_node ? init
                                                              : NULL_TREE,
                              elem, n, vals);
}

/* The tensor of DECL, a variable of static storage the kernel reads: a
   constant table, or a global integer scalar read at run time; NULL,
   reported, for any other.  */
static te_tensor *
static_tensor (lifter *l, tree decl)
{
  te_tensor **slot = l->tensors->get (decl);
  if (slot)
    return *slot;
  for (int i = 0; i < l->p->ntensors; i++)
    if (l->p->tensors[i]->kind == TE_TK_STATIC
        && l->p->tensors[i]->decl == decl) /* an inlined callee's */
      {
        l->tensors->put (decl, l->p->tensors[i]);
        return l->p->tensors[i];
      }
  tree type = TREE_TYPE (decl), elem = type;
  while (TREE_CODE (elem) == ARRAY_TYPE)
    elem = TREE_TYPE (elem);
  bool constant = TREE_READONLY (decl) && !TREE_THIS_VOLATILE (decl);
  tree ctor = constant ? ctor_for_folding (decl) : error_mark_node;
  te_type et;
  if (!static_elem_type (elem, &et))
    {
      if (!l->failed && !already_reported (l, l->loc))
        error_at (l->loc, "%s %qD of type %qT is not supported; a "
                          "differentiable function may read constant tables "
                          "of float or double and integers of 32 or 64 bits",
                  static_local_p (decl) ? "static variable"
                                        : "global variable",
                  decl, elem);
      l->failed = true;
      return NULL;
    }
  bool sized = TYPE_SIZE_UNIT (type) && tree_fits_uhwi_p (TYPE_SIZE_UNIT (type))
               && tree_to_uhwi (TYPE_SIZE_UNIT (type)) > 0;
  /* Only a constant with its values, or an integer scalar, is read.  */
  if (!sized || (ctor == error_mark_node
                 && (elem != type || te_type_is_float (et))))
    {
      refuse_static (l, decl, constant);
      return NULL;
    }
  int64_t n = tree_to_uhwi (TYPE_SIZE_UNIT (type))
              / tree_to_uhwi (TYPE_SIZE_UNIT (elem));
  if (n > MAX_STATIC_ELEMS)
    {
      if (!l->failed && !already_reported (l, l->loc))
        error_at (l->loc, "constant table %qD has %wd elements; at most %d "
                          "are supported",
                  decl, (HOST_WIDE_INT) n, MAX_STATIC_ELEMS);
      l->failed = true;
      return NULL;
    }
  double *vals = XNEWVEC (double, n);
  bool known = static_values (decl, ctor, elem, n, &constant, vals);
  te_tensor *t = NULL;
  if (!known && constant)
    refuse_static (l, decl, true);
  else
    {
      t = te_program_add_static (l->p, decl_name (decl), et, n,
                                 known ? vals : NULL, constant, decl,
                                 DECL_SOURCE_LOCATION (decl));
      l->tensors->put (decl, t);
    }
  XDELETEVEC (vals);
  return t;
}

/* Element INDEX of T, a constant table, when INDEX is a constant within
   it: the constant itself (in type TYPE); NULL otherwise.  */
te_node *
static_constant (lifter *l, const te_tensor *t, const te_node *index,
                 te_type type)
{
  if (t->kind != TE_TK_STATIC || !t->constant || !t->init
      || index->op != TE_CONST || index->u.i < 0
      || index->u.i >= t->size->u.i)
    return NULL;
  double v = t->init[index->u.i];
  return te_type_is_float (type) ? te_float (l->ctx, type, v)
                                 : te_int (l->ctx, (int64_t) v);
}

int
param_index (lifter *l, tree parm)
{
  int index = 0;
  for (tree a = DECL_ARGUMENTS (l->fun->decl); a; a = DECL_CHAIN (a), index++)
    if (a == parm)
      return index;
  return -1;
}

/* ---- loops and counters ------------------------------------------------- */

/* The counter of LOOP in the current stage or in a reduction being
   lifted, or -1 if LOOP is in neither.  */
int
loop_var (lifter *l, class loop *loop)
{
  for (int i = 0; l->cur && i < l->cur->depth; i++)
    if (l->cur->chain[i] == loop)
      return l->cur->vars[i];
  for (int i = 0; i < l->nred; i++)
    if (l->red_loops[i] == loop)
      return l->red_vars[i];
  return -1;
}

/* Is LOOP the function's body or a loop with a counter in context?  */
bool
in_context (lifter *l, class loop *loop)
{
  return loop == current_loops->tree_root || loop_var (l, loop) >= 0;
}

/* Where to instantiate SCEV results: the entry of the outermost loop in
   context.  */
edge
nest_entry (lifter *l)
{
  return loop_preheader_edge (l->cur && l->cur->depth ? l->cur->chain[0]
                                                      : l->red_loops[0]);
}

/* ---- integers ----------------------------------------------------------- */

/* The precision of the integers that load N reads from a pointer
   parameter of the kernel, or 0.  */
static unsigned
load_precision (lifter *l, const te_node *n)
{
  if (n->op != TE_LOAD || n->u.tensor->kind != TE_TK_PARAM)
    return 0;
  int k = 0;
  for (tree a = DECL_ARGUMENTS (l->fun->decl); a; a = DECL_CHAIN (a), k++)
    if (k == n->u.tensor->param)
      {
        tree t = TREE_TYPE (a);
        if (!POINTER_TYPE_P (t))
          return 0;
        t = TREE_TYPE (t);
        while (TREE_CODE (t) == ARRAY_TYPE)
          t = TREE_TYPE (t);
        return INTEGRAL_TYPE_P (t) ? TYPE_PRECISION (t) : 0;
      }
  return 0;
}

te_node *
convert_int (lifter *l, tree type, te_node *n)
{
  te_type tt;
  if (!n)
    return NULL;
  /* An element of an array of narrow unsigned integers (an unsigned
     char mask), read as the int it holds: no conversion wraps it.  */
  if (INTEGRAL_TYPE_P (type) && TREE_CODE (type) != BOOLEAN_TYPE
      && TYPE_UNSIGNED (type) && TYPE_PRECISION (type) < 32
      && (load_precision (l, n) == TYPE_PRECISION (type)
          || (n->op == TE_CONST && n->u.i >= 0
              && n->u.i >> TYPE_PRECISION (type) == 0)))
    return n;
  if (!int_te_type (type, &tt))
    {
      if (!l->failed)
        error_at (l->loc, "index of type %qT is not supported", type);
      l->failed = true;
      return NULL;
    }
  return te_cast (l->ctx, tt, n);
}

/* The value after its loop of PHI, an integer the loop steps by an
   amount that does not change in it (a counter stepped by hand,
   for (; i + 8 <= M; i += 8), whose value a remainder loop starts from):
   SCEV's evolution {B, +, S} gives B + S * N, N the number of times the
   body ran (the loop's extent as a stage has it, at least 0).  NULL,
   reporting nothing, when PHI is no such evolution or the loop does not
   test its exit first.  */
static te_node *
exit_value (lifter *l, gphi *phi)
{
  class loop *loop = gimple_bb (phi)->loop_father;
  tree name = gimple_phi_result (phi);
  edge exit = single_exit (loop);
  if (!exit || !exit_test_first (loop, exit))
    return NULL;
  tree ev = analyze_scalar_evolution (loop, name);
  if (TREE_CODE (ev) != POLYNOMIAL_CHREC
      || CHREC_VARIABLE (ev) != (unsigned) loop->num
      || chrec_contains_undetermined (ev)
      || tree_contains_chrecs (CHREC_RIGHT (ev), NULL)
      || !INTEGRAL_TYPE_P (TREE_TYPE (CHREC_RIGHT (ev)))
      || !expr_invariant_in_loop_p (loop, CHREC_RIGHT (ev)))
    return NULL;
  te_ctx *ctx = l->ctx;
  /* E - B for for (i = B; i < E; i++), which may be negative; else GCC's
     count of latch executions, never negative: the node the loop's stage
     has as its extent, so that index ranges compare.  */
  te_node *runs = counted_extent (l, loop, exit);
  if (runs)
    runs = te_binary (ctx, TE_MAX, runs, te_int (ctx, 0));
  else if (!l->failed)
    runs = loop_extent (l, loop, loop->latch);
  if (!runs)
    return NULL;
  runs = te_canon_int (ctx, te_exact_index (ctx, runs));
  te_node *base = lift_int (l, CHREC_LEFT (ev));
  te_node *step = base ? lift_int (l, CHREC_RIGHT (ev)) : NULL;
  if (!step)
    return NULL;
  te_node *v = te_add (ctx, te_cast (ctx, TE_I64, base),
                       te_mul (ctx, te_cast (ctx, TE_I64, step), runs));
  return convert_int (l, TREE_TYPE (name), te_canon_int (ctx, v));
}

/* Whether T may be read or written as TYPE: its own floating type, or
   any integer type (of any width: 8- and 16-bit arrays are TE_I32
   tensors, a bool mask too) for an integer array.  Otherwise the access reinterprets the bytes, which has no
   derivative: an error, and false.  */
static bool
accessed_as_element (lifter *l, const te_tensor *t, tree type)
{
  te_type et;
  if (INTEGRAL_TYPE_P (type) && !te_type_is_float (t->type))
    return true;
  if ((float_te_type (type, &et) || int_te_type (type, &et))
      && (t->type == et
          || (!te_type_is_float (et) && !te_type_is_float (t->type))))
    return true;
  error_at (l->loc, "%qs is accessed as %qT, not as its element type",
            t->name, type);
  l->failed = true;
  return false;
}

/* Integer SSA name NAME: through SCEV when it is defined in the nest and
   SCEV knows it, else through its definition.  */
te_node *
lift_int_ssa (lifter *l, tree name)
{
  te_node **slot = l->memo->get (name);
  if (slot)
    return *slot;
  te_node *r = NULL;
  if (SSA_NAME_IS_DEFAULT_DEF (name))
    {
      tree var = SSA_NAME_VAR (name);
      int index = var && TREE_CODE (var) == PARM_DECL ? param_index (l, var)
                                                      : -1;
      if (index < 0)
        return fail (l, "use of an uninitialized integer");
      r = convert_int (l, TREE_TYPE (name),
                       te_param_ref (l->ctx, TE_I64, index));
    }
  else
    {
      gimple *def = SSA_NAME_DEF_STMT (name);
      class loop *dl = gimple_bb (def)->loop_father;
      /* SCEV for what the source does not spell out (counters, pointer
         increments); the source's own arithmetic otherwise, which keeps
         C's signed no-overflow semantics that SCEV may fold away.  */
      if (loop_var (l, dl) >= 0 && gimple_code (def) == GIMPLE_PHI)
        {
          tree ev0 = analyze_scalar_evolution (dl, name);
          tree ev = instantiate_scev (nest_entry (l), dl, ev0);
          if (ev != chrec_dont_know && !chrec_contains_undetermined (ev)
              && ev != name)
            r = lift_int (l, ev);
          /* Or a counter of DL from a start that SCEV cannot express in
             the outer loops (j = 2 * (n / 2) in a loop over rows: SCEV
             knows no division), but that DL does not change: the start
             through its definition, as the source computes it.  */
          else if (TREE_CODE (ev0) == POLYNOMIAL_CHREC
                   && CHREC_VARIABLE (ev0) == (unsigned) dl->num
                   && !tree_contains_chrecs (CHREC_LEFT (ev0), NULL)
                   && !tree_contains_chrecs (CHREC_RIGHT (ev0), NULL)
                   && !chrec_contains_undetermined (ev0)
                   && expr_invariant_in_loop_p (dl, CHREC_LEFT (ev0))
                   && expr_invariant_in_loop_p (dl, CHREC_RIGHT (ev0)))
            r = lift_int (l, ev0);
        }
      if (!r && !l->failed)
        {
          if (is_gimple_assign (def))
            {
              enum tree_code code = gimple_assign_rhs_code (def);
              tree rhs = gimple_assign_rhs1 (def);
              if (gimple_assign_load_p (def))
                {
                  te_tensor *t;
                  te_node *off;
                  if (!lift_pointer (l, build_fold_addr_expr (rhs), &t, &off)
                      || !accessed_as_element (l, t, TREE_TYPE (rhs)))
                    return NULL;
                  tree size = TYPE_SIZE_UNIT (TREE_TYPE (rhs));
                  te_node *idx = te_div (l->ctx, off,
                                         te_int (l->ctx, tree_to_shwi (size)));
                  te_node *c = static_constant (l, t, idx, TE_I64);
                  r = convert_int (l, TREE_TYPE (name),
                                   c ? c : te_load (l->ctx, t, idx));
                }
              else if (code == FIX_TRUNC_EXPR)
                return fail_float_to_int (l, def);
              else if (get_gimple_rhs_class (code) == GIMPLE_SINGLE_RHS)
                r = lift_int (l, rhs);
              else
                {
                  tree e = gimple_assign_rhs_to_tree (def);
                  r = lift_int (l, e);
                }
            }
          else if (expect_call_p (def))
            r = lift_int (l, gimple_call_arg (def, 0));
          else if (checked_arith_code (def) != ERROR_MARK)
            r = lift_int (l, build2 (checked_arith_code (def),
                                     TREE_TYPE (name),
                                     gimple_call_arg (def, 0),
                                     gimple_call_arg (def, 1)));
          else if (gimple_code (def) == GIMPLE_PHI
                   && gimple_bb (def) != dl->header)
            r = convert_int (l, TREE_TYPE (name),
                             lift_join (l, as_a<gphi *> (def)));
          else if (gimple_code (def) == GIMPLE_PHI && !in_context (l, dl)
                   && in_context (l, loop_outer (dl)))
            {
              /* Not remembered: inside the loop, where a later reduction
                 over it lifts its body, NAME is the counter's value in
                 each iteration.  */
              r = exit_value (l, as_a<gphi *> (def));
              if (!r && !l->failed)
                r = lift_count (l, as_a<gphi *> (def));
              return r;
            }
          else if (!l->failed)
            return fail_int_def (l, name, def);
        }
    }
  if (r)
    l->memo->put (name, r);
  return r;
}

te_op
compare_op (enum tree_code code)
{
  switch (code)
    {
    case LT_EXPR:
      return TE_LT;
    case LE_EXPR:
      return TE_LE;
    case GT_EXPR:
      return TE_GT;
    case GE_EXPR:
      return TE_GE;
    case EQ_EXPR:
      return TE_EQ;
    case NE_EXPR:
      return TE_NE;
    default:
      return TE_NUM_OPS;
    }
}

/* A pointer compared with NULL (`bias != NULL', `if (bias)', `!bias'):
   the pointer must be a parameter of the kernel, which becomes optional
   (te_tensor.optional), and the test its te_nonnull predicate.  */
static te_node *
lift_null_test (lifter *l, enum tree_code code, tree a, tree b)
{
  if (integer_zerop (a))
    std::swap (a, b);
  if ((code != EQ_EXPR && code != NE_EXPR) || !integer_zerop (b))
    {
      if (!l->failed)
        {
          error_at (l->loc, "a pointer compared with anything but NULL "
                            "cannot be differentiated");
          inform (l->loc, "compare indices, or test a pointer parameter "
                          "against NULL only");
        }
      l->failed = true;
      return NULL;
    }
  tree var = TREE_CODE (a) == SSA_NAME && SSA_NAME_IS_DEFAULT_DEF (a)
                 ? SSA_NAME_VAR (a)
                 : NULL_TREE;
  int index = var && TREE_CODE (var) == PARM_DECL ? param_index (l, var) : -1;
  te_param_kind kind = index >= 0 ? l->p->params[index].kind : TE_PK_INT;
  if (kind != TE_PK_PTR_FLOAT && kind != TE_PK_PTR_INT)
    {
      if (!l->failed)
        {
          error_at (l->loc, "only a pointer parameter of the kernel can be "
                            "tested against NULL");
          inform (l->loc, "test the parameter itself, as in "
                          "%<bias != NULL ? bias[o] : 0%>");
        }
      l->failed = true;
      return NULL;
    }
  param_tensor (l, var)->optional = true;
  te_node *n = te_nonnull (l->ctx, index);
  return code == NE_EXPR ? n : te_not (l->ctx, n);
}

/* A range test GCC folded, (unsigned) E <= C for a signed E of the same
   precision and 0 <= C < 2^(p-1) (CODE <, <=, > or >=; the front end
   makes it of E >= 0 && E <= C at -O1 and up), as that pair of signed
   tests: the same truth for every E, which the guard analyses read as
   bounds on E (a padded convolution's 0 <= oh + kh - 1 <= 4: the
   extents of its arrays, clip.c's loop bounds).  NULL when A < B is no
   such test.  */
static te_node *
lift_unsigned_range (lifter *l, enum tree_code code, tree a, tree b)
{
  if ((code != LE_EXPR && code != LT_EXPR && code != GE_EXPR
       && code != GT_EXPR)
      || TREE_CODE (a) != SSA_NAME || TREE_CODE (b) != INTEGER_CST
      || !INTEGRAL_TYPE_P (TREE_TYPE (a)) || !TYPE_UNSIGNED (TREE_TYPE (a)))
    return NULL;
  gimple *d = SSA_NAME_DEF_STMT (a);
  if (!is_gimple_assign (d)
      || !CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d)))
    return NULL;
  tree e = gimple_assign_rhs1 (d);
  unsigned prec = TYPE_PRECISION (TREE_TYPE (a));
  if (!INTEGRAL_TYPE_P (TREE_TYPE (e)) || TYPE_UNSIGNED (TREE_TYPE (e))
      || TYPE_PRECISION (TREE_TYPE (e)) != prec || prec > 64
      || wi::geu_p (wi::to_wide (b), wi::set_bit_in_zero (prec - 1, prec)))
    return NULL;
  te_node *x = lift_int (l, e);
  if (!x)
    return NULL;
  te_ctx *ctx = l->ctx;
  te_node *c = te_int (ctx, (int64_t) tree_to_uhwi (b));
  te_node *zero = te_int (ctx, 0);
  if (x->type != c->type)
    {
      c = te_cast (ctx, x->type, c);
      zero = te_cast (ctx, x->type, zero);
    }
  /* E in [0, C] (<=, >) or [0, C) (<, >=).  */
  bool closed = code == LE_EXPR || code == GT_EXPR;
  te_node *in = te_binary (ctx, TE_AND, te_binary (ctx, TE_LE, zero, x),
                           te_binary (ctx, closed ? TE_LE : TE_LT, x, c));
  return code == LE_EXPR || code == LT_EXPR ? in : te_not (ctx, in);
}

/* Lift comparison CODE of A and B, integer or floating.  */
te_node *
lift_compare (lifter *l, enum tree_code code, tree a, tree b)
{
  te_op op = compare_op (code);
  if (op == TE_NUM_OPS)
    return fail (l, "this comparison cannot be lifted");
  if (te_node *r = lift_unsigned_range (l, code, a, b))
    return r;
  if (l->nonnull && POINTER_TYPE_P (TREE_TYPE (a)) && integer_zerop (b)
      && (code == EQ_EXPR || code == NE_EXPR))
    return te_bool (l->ctx, code == NE_EXPR);
  if (POINTER_TYPE_P (TREE_TYPE (a)) || POINTER_TYPE_P (TREE_TYPE (b)))
    return lift_null_test (l, code, a, b);
  bool fl = SCALAR_FLOAT_TYPE_P (TREE_TYPE (a));
  te_node *x = fl ? lift_float (l, a) : lift_int (l, a);
  te_node *y = fl ? lift_float (l, b) : lift_int (l, b);
  if (!x || !y)
    return NULL;
  if (!fl && x->type != y->type)
    {
      x = te_cast (l->ctx, TE_I64, x);
      y = te_cast (l->ctx, TE_I64, y);
    }
  return te_binary (l->ctx, op, x, y);
}

/* X / D rounded down, D a power of two, for X of integer TYPE: what
   X >> k is, and what X & -D (a multiple of D, M - M % 8 as GCC folds it
   for unsigned M) divides by D.  An unsigned X is never negative, so
   C's truncating division is it; a signed one is rounded toward minus
   infinity by hand.  */
static te_node *
floor_div (lifter *l, tree type, tree x, int64_t d)
{
  te_ctx *ctx = l->ctx;
  te_node *a = convert_int (l, type, lift_int (l, x));
  if (!a)
    return NULL;
  te_node *dd = te_cast (ctx, a->type, te_int (ctx, d));
  if (TYPE_UNSIGNED (type))
    return te_div (ctx, a, dd);
  te_node *below = te_div (ctx, te_sub (ctx, a, te_cast (ctx, a->type,
                                                         te_int (ctx, d - 1))),
                           dd);
  return te_select (ctx, te_binary (ctx, TE_GE, a, te_cast (ctx, a->type,
                                                            te_int (ctx, 0))),
                    te_div (ctx, a, dd), below);
}

/* X & C for T, a BIT_AND_EXPR of integers with a constant C that keeps
   the high bits (C = -D, D a power of two: X rounded down to a multiple
   of D) or the low ones (C = D - 1: X's remainder modulo D, never
   negative); NULL, reporting nothing, for any other mask.  */
static te_node *
lift_mask (lifter *l, tree t)
{
  tree type = TREE_TYPE (t);
  tree x = TREE_OPERAND (t, 0), c = TREE_OPERAND (t, 1);
  if (TREE_CODE (c) != INTEGER_CST)
    std::swap (x, c);
  if (TREE_CODE (c) != INTEGER_CST || TYPE_PRECISION (type) > 64)
    return NULL;
  /* C sign-extended from TYPE's precision.  */
  wide_int w = wi::sext (wi::to_wide (c), TYPE_PRECISION (type));
  int64_t v = w.to_shwi ();
  bool high = v < 0 && ((-v) & (-v - 1)) == 0 && v != INT64_MIN;
  bool low = v > 0 && ((v + 1) & v) == 0;
  if (!high && !low)
    return NULL;
  int64_t d = high ? -v : v + 1;
  te_ctx *ctx = l->ctx;
  te_node *q = floor_div (l, type, x, d);
  if (!q)
    return NULL;
  te_node *down = te_mul (ctx, q, te_cast (ctx, q->type, te_int (ctx, d)));
  if (high)
    return down;
  return te_sub (ctx, convert_int (l, type, lift_int (l, x)), down);
}

/* Integer (or boolean) expression T: GENERIC, chrec or SSA name.  */
te_node *
lift_int (lifter *l, tree t)
{
  if (l->failed)
    return NULL;
  te_ctx *ctx = l->ctx;
  tree type = TREE_TYPE (t);
  enum tree_code code = TREE_CODE (t);
  switch (code)
    {
    case INTEGER_CST:
      return convert_int (l, type,
                          te_int (ctx, (int64_t) TREE_INT_CST_LOW (t)));
    case SSA_NAME:
      return lift_int_ssa (l, t);
    case POLYNOMIAL_CHREC:
      {
        int var = loop_var (l, get_loop (l->fun, CHREC_VARIABLE (t)));
        if (var < 0)
          return fail (l, "index of this access is not affine in the loop "
                          "counters");
        te_node *a = lift_int (l, CHREC_LEFT (t));
        te_node *s = lift_int (l, CHREC_RIGHT (t));
        if (!a || !s)
          return NULL;
        return te_add (ctx, a, te_mul (ctx, s, convert_int (l, type,
                                                            te_var (ctx, var))));
      }
    CASE_CONVERT:
      {
        tree op = TREE_OPERAND (t, 0);
        if (!INTEGRAL_TYPE_P (TREE_TYPE (op)))
          return fail (l, "conversion to an integer of a non-integer value "
                          "cannot be differentiated");
        return convert_int (l, type, lift_int (l, op));
      }
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case TRUNC_DIV_EXPR:
    case EXACT_DIV_EXPR:
    case TRUNC_MOD_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      {
        te_node *a = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 0)));
        te_node *b = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 1)));
        if (!a || !b)
          return NULL;
        te_op op = code == PLUS_EXPR    ? TE_ADD
                   : code == MINUS_EXPR ? TE_SUB
                   : code == MULT_EXPR  ? TE_MUL
                   : code == MIN_EXPR   ? TE_MIN
                   : code == MAX_EXPR   ? TE_MAX
                   : code == TRUNC_MOD_EXPR ? TE_MOD
                                        : TE_DIV;
        return te_binary (ctx, op, a, b);
      }
    case FIX_TRUNC_EXPR:
      return fail_float_to_int (l, NULL);
    case LSHIFT_EXPR:
      if (tree_fits_shwi_p (TREE_OPERAND (t, 1))
          && tree_to_shwi (TREE_OPERAND (t, 1)) < 32)
        return te_mul (ctx,
                       convert_int (l, type, lift_int (l, TREE_OPERAND (t, 0))),
                       convert_int (l, type,
                                    te_int (ctx, (int64_t) 1 << tree_to_shwi (
                                                     TREE_OPERAND (t, 1)))));
      return fail (l, "index of this access is not affine in the loop "
                      "counters");
    case RSHIFT_EXPR:
      if (TREE_CODE (type) != BOOLEAN_TYPE
          && tree_fits_shwi_p (TREE_OPERAND (t, 1))
          && tree_to_shwi (TREE_OPERAND (t, 1)) >= 0
          && tree_to_shwi (TREE_OPERAND (t, 1)) < 32)
        return floor_div (l, type, TREE_OPERAND (t, 0),
                          (int64_t) 1 << tree_to_shwi (TREE_OPERAND (t, 1)));
      return fail (l, "index of this access is not affine in the loop "
                      "counters");
    case NEGATE_EXPR:
      return convert_int (l, type,
                          te_neg (ctx, lift_int (l, TREE_OPERAND (t, 0))));
    case COND_EXPR:
      {
        te_node *c = lift_int (l, TREE_OPERAND (t, 0));
        te_node *a = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 1)));
        te_node *b = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 2)));
        if (!c || !a || !b)
          return NULL;
        return te_select (ctx, c, a, b);
      }
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
    case EQ_EXPR:
    case NE_EXPR:
      return lift_compare (l, code, TREE_OPERAND (t, 0), TREE_OPERAND (t, 1));
    case TRUTH_ANDIF_EXPR:
    case TRUTH_AND_EXPR:
    case TRUTH_ORIF_EXPR:
    case TRUTH_OR_EXPR:
    case BIT_AND_EXPR:
    case BIT_IOR_EXPR:
      {
        if (code == BIT_AND_EXPR && TREE_CODE (type) != BOOLEAN_TYPE)
          {
            te_node *m = lift_mask (l, t);
            if (m || l->failed)
              return m;
          }
        if (TREE_CODE (type) != BOOLEAN_TYPE
            && (code == BIT_AND_EXPR || code == BIT_IOR_EXPR))
          return fail (l, "bitwise operations on indices are not supported");
        te_node *a = lift_int (l, TREE_OPERAND (t, 0));
        te_node *b = lift_int (l, TREE_OPERAND (t, 1));
        if (!a || !b)
          return NULL;
        bool is_and = code == TRUTH_ANDIF_EXPR || code == TRUTH_AND_EXPR
                      || code == BIT_AND_EXPR;
        return te_binary (ctx, is_and ? TE_AND : TE_OR,
                          te_cast (ctx, TE_BOOL, a), te_cast (ctx, TE_BOOL, b));
      }
    case TRUTH_NOT_EXPR:
    case BIT_NOT_EXPR:
      if (TREE_CODE (type) != BOOLEAN_TYPE)
        return fail (l, "bitwise operations on indices are not supported");
      return te_not (ctx, te_cast (ctx, TE_BOOL,
                                   lift_int (l, TREE_OPERAND (t, 0))));
    default:
      return fail (l, "index of this access is not affine in the loop "
                      "counters");
    }
}

/* ---- addresses ---------------------------------------------------------- */

static tree bumped_pointer (gphi *phi, class loop *loop);

/* SSA pointer T as BASE + OFF bytes, by what defines it: a parameter at
   entry, an evolution in the loops of the nest, a copy or pointer
   arithmetic, the allocation of a variable-length local array.  A
   pointer loaded from memory, or defined otherwise, is refused.  */
static bool
ssa_pointer (lifter *l, tree t, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    {
      tree var = SSA_NAME_VAR (t);
      if (!var || TREE_CODE (var) != PARM_DECL)
        return fail (l, "use of an uninitialized pointer"), false;
      *base = param_tensor (l, var);
      *off = te_int (ctx, 0);
      return true;
    }
  gimple *def = SSA_NAME_DEF_STMT (t);
  class loop *dl = gimple_bb (def)->loop_father;
  if (loop_var (l, dl) >= 0 && gimple_code (def) == GIMPLE_PHI)
    {
      tree ev = analyze_scalar_evolution (dl, t);
      if (ev == t)
        ev = bumped_pointer (as_a<gphi *> (def), dl);
      ev = instantiate_scev (nest_entry (l), dl, ev);
      if (ev != chrec_dont_know && !chrec_contains_undetermined (ev)
          && ev != t)
        return lift_pointer (l, ev, base, off);
    }
  if (is_gimple_assign (def) && !gimple_assign_load_p (def))
    {
      if (get_gimple_rhs_class (gimple_assign_rhs_code (def))
          == GIMPLE_SINGLE_RHS)
        return lift_pointer (l, gimple_assign_rhs1 (def), base, off);
      return lift_pointer (l, gimple_assign_rhs_to_tree (def), base, off);
    }
  if (is_gimple_assign (def))
    return fail (l, "a pointer loaded from memory cannot be "
                    "differentiated"),
           false;
  if (gimple_call_builtin_p (def, BUILT_IN_ALLOCA_WITH_ALIGN)
      || gimple_call_builtin_p (def, BUILT_IN_ALLOCA))
    {
      /* A variable-length local array.  */
      *base = local_tensor (l, t, TREE_TYPE (TREE_TYPE (t)),
                            gimple_call_arg (def, 0));
      *off = te_int (ctx, 0);
      return *base != NULL;
    }
  return fail (l, "index of this access is not affine in the loop "
                  "counters"),
         false;
}

/* The evolution of pointer PHI, in the header of LOOP, that the loop
   bumps by a constant through a copy (*x++ on a parameter at -O0:
   x.0 = x; x = x.0 + 8, which SCEV leaves unknown): {init, +, step};
   else PHI's result.  */
static tree
bumped_pointer (gphi *phi, class loop *loop)
{
  tree t = gimple_phi_result (phi);
  if (gimple_bb (phi) != loop->header)
    return t;
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  gimple *d = TREE_CODE (next) == SSA_NAME ? SSA_NAME_DEF_STMT (next) : NULL;
  if (!d || !is_gimple_assign (d)
      || gimple_assign_rhs_code (d) != POINTER_PLUS_EXPR
      || TREE_CODE (gimple_assign_rhs2 (d)) != INTEGER_CST)
    return t;
  tree a = gimple_assign_rhs1 (d);
  while (TREE_CODE (a) == SSA_NAME && a != t)
    {
      gimple *c = SSA_NAME_DEF_STMT (a);
      if (!gimple_assign_ssa_name_copy_p (c))
        return t;
      a = gimple_assign_rhs1 (c);
    }
  if (a != t)
    return t;
  return build_polynomial_chrec (
      loop->num, PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (loop)),
      fold_convert (sizetype, gimple_assign_rhs2 (d)));
}

/* Pointer evolution T, {B, +, S}_LOOP, as BASE + OFF bytes: B plus S
   times the counter of LOOP, which must be a loop of the nest.  */
static bool
chrec_pointer (lifter *l, tree t, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  int var = loop_var (l, get_loop (l->fun, CHREC_VARIABLE (t)));
  te_node *s;
  if (var < 0)
    return fail (l, "index of this access is not affine in the loop "
                    "counters"),
           false;
  if (!lift_pointer (l, CHREC_LEFT (t), base, off))
    return false;
  s = lift_int (l, CHREC_RIGHT (t));
  if (!s)
    return false;
  *off = te_add (ctx, *off,
                 te_mul (ctx, te_cast (ctx, TE_I64, s), te_var (ctx, var)));
  return true;
}

/* The object INNER of a reference whose address is taken, as BASE + OFF
   bytes: the memory a MEM_REF points to, or a local array.  A global
   variable, a scalar variable or parameter, anything else, is
   refused.  */
static bool
address_base (lifter *l, tree inner, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  if (TREE_CODE (inner) == MEM_REF)
    {
      /* The constant offset of a MEM_REF has a pointer type.  */
      poly_int64 moff;
      if (!mem_ref_offset (inner).to_shwi (&moff) || !moff.is_constant ())
        return fail (l, "unsupported memory access"), false;
      te_node *o = te_int (ctx, moff.to_constant ());
      if (!lift_pointer (l, TREE_OPERAND (inner, 0), base, off))
        return false;
      *off = te_add (ctx, *off, o);
      return true;
    }
  if (VAR_P (inner) && (TREE_STATIC (inner) || DECL_EXTERNAL (inner)))
    {
      *base = static_tensor (l, inner);
      *off = te_int (ctx, 0);
      return *base != NULL;
    }
  if (VAR_P (inner) && TREE_CODE (TREE_TYPE (inner)) == ARRAY_TYPE)
    {
      *base = local_tensor (l, inner, TREE_TYPE (inner),
                            TYPE_SIZE_UNIT (TREE_TYPE (inner)));
      if (!*base)
        return false;
      *off = te_int (ctx, 0);
      return true;
    }
  if (VAR_P (inner) || TREE_CODE (inner) == PARM_DECL)
    {
      if (!l->failed)
        error_at (l->loc, "the address of %qD is taken; a "
                          "differentiable function may only index "
                          "arrays",
                  inner);
      l->failed = true;
      return false;
    }
  return fail (l, "unsupported memory access"), false;
}

/* Address T, an ADDR_EXPR, as BASE + OFF bytes: the object it points
   into (address_base) plus the constant and variable byte offsets of the
   reference within it.  */
static bool
address_pointer (lifter *l, tree t, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  tree ref = TREE_OPERAND (t, 0);
  poly_int64 bitsize, bitpos;
  tree offset;
  machine_mode mode;
  int unsignedp, reversep, volatilep = 0;
  tree inner = get_inner_reference (ref, &bitsize, &bitpos, &offset, &mode,
                                    &unsignedp, &reversep, &volatilep);
  HOST_WIDE_INT bytes;
  if (!multiple_p (bitpos, BITS_PER_UNIT)
      || !bits_to_bytes_round_down (bitpos).is_constant (&bytes))
    return fail (l, "unsupported memory access"), false;
  if (!address_base (l, inner, base, off))
    return false;
  *off = te_add (ctx, *off, te_int (ctx, bytes));
  if (offset)
    {
      te_node *o = lift_int (l, offset);
      if (!o)
        return false;
      *off = te_add (ctx, *off, te_cast (ctx, TE_I64, o));
    }
  return true;
}

/* Pointer expression T as BASE + OFF bytes.  */
bool
lift_pointer (lifter *l, tree t, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  if (l->failed)
    return false;
  switch (TREE_CODE (t))
    {
    case SSA_NAME:
      return ssa_pointer (l, t, base, off);
    case POLYNOMIAL_CHREC:
      return chrec_pointer (l, t, base, off);
    case POINTER_PLUS_EXPR:
      {
        te_node *o = lift_int (l, TREE_OPERAND (t, 1));
        if (!o || !lift_pointer (l, TREE_OPERAND (t, 0), base, off))
          return false;
        *off = te_add (ctx, *off, te_cast (ctx, TE_I64, o));
        return true;
      }
    CASE_CONVERT:
      return lift_pointer (l, TREE_OPERAND (t, 0), base, off);
    case ADDR_EXPR:
      return address_pointer (l, t, base, off);
    default:
      return fail (l, "unsupported memory access"), false;
    }
}

/* Degree of N in the loop counters, with gathers (loads of index arrays)
   counted as degree 0; 2 stands for "not affine".  */
int
affine_degree (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_LOAD:
      return 0;
    case TE_VAR:
      return 1;
    case TE_ADD:
    case TE_SUB:
    case TE_MIN:
    case TE_MAX:
      return MAX (affine_degree (n->args[0]), affine_degree (n->args[1]));
    case TE_MUL:
      return MIN (2, affine_degree (n->args[0]) + affine_degree (n->args[1]));
    case TE_DIV:
    case TE_MOD:
      return affine_degree (n->args[1]) ? 2 : affine_degree (n->args[0]);
    case TE_NEG:
    case TE_CAST:
      return affine_degree (n->args[0]);
    case TE_SELECT:
      return MAX (affine_degree (n->args[1]), affine_degree (n->args[2]));
    default:
      return 2;
    }
}

/* Divide byte offset OFF by SIZE where that is exact term by term.  */
te_node *
bytes_to_elements (te_ctx *ctx, te_node *off, int64_t size)
{
  if (size == 1)
    return off;
  switch (off->op)
    {
    case TE_CONST:
      if (off->u.i % size == 0)
        return te_int (ctx, off->u.i / size);
      break;
    case TE_ADD:
    case TE_SUB:
      {
        te_node *a = bytes_to_elements (ctx, off->args[0], size);
        te_node *b = bytes_to_elements (ctx, off->args[1], size);
        if (a && b)
          return te_binary (ctx, off->op, a, b);
        break;
      }
    case TE_NEG:
      {
        te_node *a = bytes_to_elements (ctx, off->args[0], size);
        if (a)
          return te_neg (ctx, a);
        break;
      }
    case TE_MUL:
      for (int i = 0; i < 2; i++)
        {
          te_node *a = bytes_to_elements (ctx, off->args[i], size);
          if (a)
            return te_mul (ctx, a, off->args[1 - i]);
        }
      break;
    default:
      break;
    }
  return NULL;
}

/* The tensor and element index that memory reference REF accesses.  */
bool
lift_access (lifter *l, tree ref, te_tensor **t, te_node **index)
{
  te_node *off;
  if (!lift_pointer (l, build_fold_addr_expr (ref), t, &off))
    return false;
  int64_t size = tree_to_shwi (TYPE_SIZE_UNIT (TREE_TYPE (ref)));
  if (!accessed_as_element (l, *t, TREE_TYPE (ref)))
    return false;
  off = te_canon_int (l->ctx, te_exact_index (l->ctx, off));
  *index = bytes_to_elements (l->ctx, off, size);
  if (!*index)
    *index = te_div (l->ctx, off, te_int (l->ctx, size));
  *index = te_canon_int (l->ctx, *index);
  if (affine_degree (*index) > 1)
    {
      error_at (l->loc, "index of %qs is not affine in the loop counters",
                (*t)->name);
      l->failed = true;
      return false;
    }
  return true;
}


} // namespace tg_lift
