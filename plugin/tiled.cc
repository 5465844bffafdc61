/* tiled.cc -- the static function that runs a matrix product without a
   library, as GENERIC (lib/back/tiled.h says what it computes, in which
   order, and how; lib/back/cgen-tiled.c prints the same as C).

   Before:  a blas stage of a gradient made without
	    -fplugin-arg-tensorgrad-blas, or of the function that runs a
	    kernel's own product under -fplugin-arg-tensorgrad-tiled-forward
	    (forward.cc; both te_program.tiled).
   After:   once per object and element type, a static function
	    tensorgrad.tiled.f32 (f64) of (m, n, k, alpha, a, sai, sap, b,
	    sbp, sbj, c, ldc, set), gimplified, which emit.cc hands to the
	    call graph with the gradients and calls for the stage.

   1. The locals, the packing buffers (malloc; on failure, step 4 of
      tiled.h: the sums unpacked) and the loops of tiled.h's steps 1-3,
      built as LOOP_EXPRs with an EXIT_EXPR at the top.
   2. The register tile: MR * NV locals of GCC's generic vector type of
      the target's preferred width (16 bytes when it has none), so the
      tile is vector code at every -O level and with any cost model, not
      something the vectorizer may or may not find; B's vectors are
      loaded unaligned (the type has the element's alignment), A's
      element broadcast by a CONSTRUCTOR.

   3. On x86-64 with ifuncs (tiled.h step 5): the default version as
      tensorgrad.tiled.f32.default, a version per TE_TILED_WIDE entry
      (the target attribute set through the target's hook, as the C
      front end does; its vectors of the entry's width; each multiply
      and add one IFN_FMA), a resolver of __builtin_cpu_init and
      __builtin_cpu_supports (found among the target's builtins by
      name), and tensorgrad.tiled.f32 itself an ifunc alias of the
      resolver (GCC's make_resolver_func does the same for
      target_clones), made once the resolver is in the call graph
      (tiled_hand_over).

   Limits: the default version's width is the command line's target
   (the preferred SIMD mode), not a kernel's target attribute; a kernel
   with a target attribute of its own gets wide versions from the
   command line's options plus the version's.  */

#include "tiled.h"

#include "back/tiled.h"

/* The function being built: its declaration, its locals so far.  */
struct builder
{
  tree fn;
  tree locals;
  location_t loc;
};

static tree
new_var (builder *b, tree type, const char *name)
{
  tree v = build_decl (b->loc, VAR_DECL, get_identifier (name), type);
  DECL_CONTEXT (v) = b->fn;
  DECL_ARTIFICIAL (v) = 1;
  TREE_USED (v) = 1;
  DECL_CHAIN (v) = b->locals;
  b->locals = v;
  return v;
}

static tree
lng (HOST_WIDE_INT v)
{
  return build_int_cst (long_integer_type_node, v);
}

static tree
set (tree lhs, tree rhs)
{
  return build2 (MODIFY_EXPR, TREE_TYPE (lhs), lhs,
		 fold_convert (TREE_TYPE (lhs), rhs));
}

static tree
add (tree a, tree b)
{
  return fold_build2 (PLUS_EXPR, TREE_TYPE (a), a, b);
}

static tree
mul (tree a, tree b)
{
  return fold_build2 (MULT_EXPR, TREE_TYPE (a), a, b);
}

static tree
lmin (tree a, tree b)
{
  return fold_build2 (MIN_EXPR, long_integer_type_node, a, b);
}

/* PTR + IDX elements, IDX a long.  */
static tree
plus (tree ptr, tree idx)
{
  tree elem = TREE_TYPE (TREE_TYPE (ptr));
  tree off = fold_build2 (MULT_EXPR, sizetype, fold_convert (sizetype, idx),
			  TYPE_SIZE_UNIT (elem));
  return fold_build_pointer_plus (ptr, off);
}

/* The element PTR[IDX], IDX a long.  */
static tree
at (tree ptr, tree idx)
{
  return build_fold_indirect_ref (plus (ptr, idx));
}

/* The vector of type VT (element-aligned) at PTR + IDX elements.  */
static tree
vat (tree vt, tree ptr, tree idx)
{
  tree elem = TREE_TYPE (TREE_TYPE (ptr));
  tree off = fold_build2 (MULT_EXPR, sizetype, fold_convert (sizetype, idx),
			  TYPE_SIZE_UNIT (elem));
  tree addr = fold_build_pointer_plus (ptr, off);
  return build2 (MEM_REF, vt, addr,
		 build_int_cst (build_pointer_type (elem), 0));
}

/* for (V = LO; V < HI; V += STEP) BODY, longs.  */
static tree
for_loop (tree v, tree lo, tree hi, tree step, tree body)
{
  tree list = alloc_stmt_list ();
  append_to_statement_list (set (v, lo), &list);
  tree inner = alloc_stmt_list ();
  append_to_statement_list (build1 (EXIT_EXPR, void_type_node,
				    build2 (GE_EXPR, boolean_type_node, v, hi)),
			    &inner);
  append_to_statement_list (body, &inner);
  append_to_statement_list (set (v, add (v, step)), &inner);
  append_to_statement_list (build1 (LOOP_EXPR, void_type_node, inner), &list);
  return list;
}

static tree
stmts2 (tree a, tree b)
{
  tree list = alloc_stmt_list ();
  append_to_statement_list (a, &list);
  append_to_statement_list (b, &list);
  return list;
}

/* V rounded up to a multiple of W.  */
static tree
round_to (tree v, int w)
{
  return mul (fold_build2 (TRUNC_DIV_EXPR, long_integer_type_node,
			   add (v, lng (w - 1)), lng (w)),
	      lng (w));
}

/* malloc (COUNT elements) as PTR's type.  */
static tree
alloc_of (tree ptr, tree count)
{
  tree elem = TREE_TYPE (ptr);
  tree bytes = fold_build2 (MULT_EXPR, size_type_node,
			    fold_convert (size_type_node, count),
			    TYPE_SIZE_UNIT (elem));
  return fold_convert (
      ptr, build_call_expr (builtin_decl_explicit (BUILT_IN_MALLOC), 1, bytes));
}

/* The target's preferred vector width in bytes for ELEM, or 16.  */
static int
vector_bytes (tree elem)
{
  machine_mode m
      = targetm.vectorize.preferred_simd_mode (SCALAR_FLOAT_TYPE_MODE (elem));
  if (!VECTOR_MODE_P (m) || !GET_MODE_SIZE (m).is_constant ())
    return 16;
  int bytes = GET_MODE_SIZE (m).to_constant ();
  return bytes >= 16 && bytes <= 64 ? bytes : 16;
}

/* Packing (steps 1 and 2): for (R = 0; R < LIMIT; R += W) for (p = 0;
   p < KC; p++) for (x = 0; x < W; x++) BUF[R*KC + p*W + x] = R + x < COUNT
   ? SRC[(R + START + x) * SX + (P0 + p) * SP] : 0; with the loops over
   x and p swapped when SP is 1, so that the source is read along its
   rows (a transposed operand: W rows SX apart, read down a column, all
   fall in one set of the cache when SX is a multiple of 4 KB, and
   bench/conv2d.c's gradient spent 62% of its time so).  */
struct pack
{
  tree buf, src, sx, sp, start, count, p0, w;
};

static tree
pack_block (builder *b, const pack *k, tree kc, tree r, tree p, tree x)
{
  tree elem = TREE_TYPE (TREE_TYPE (k->buf));
  tree dst = at (k->buf, add (add (mul (r, kc), mul (p, k->w)), x));
  tree rx = add (r, x);
  tree src = at (k->src, add (mul (add (rx, k->start), k->sx),
			      mul (add (k->p0, p), k->sp)));
  tree val = build3 (COND_EXPR, elem,
		     build2 (LT_EXPR, boolean_type_node, rx, k->count), src,
		     build_zero_cst (elem));
  tree store = set (dst, val);
  tree px = for_loop (p, lng (0), kc, lng (1),
		      for_loop (x, lng (0), k->w, lng (1), store));
  tree xp = for_loop (x, lng (0), k->w, lng (1),
		      for_loop (p, lng (0), unshare_expr (kc), lng (1),
				unshare_expr (store)));
  (void) b;
  tree unit = build2 (EQ_EXPR, boolean_type_node, k->sp, lng (1));
  return for_loop (r, lng (0), k->count, k->w,
		   build3 (COND_EXPR, void_type_node, unit, xp, px));
}

/* Multiply-add C + A * B: one rounding when FMA (IFN_FMA, the wide
   versions), else two.  */
static tree
madd (tree a, tree b, tree c, bool fma)
{
  tree t = TREE_TYPE (c);
  if (fma)
    return build_call_expr_internal_loc (UNKNOWN_LOCATION, IFN_FMA, t, 3, a, b,
					 c);
  return build2 (PLUS_EXPR, t, c, build2 (MULT_EXPR, t, a, b));
}

/* FIRST ? A * B : C + A * B (madd), the set form's first block of terms
   (tiled.h step 3): C's old value not read there, a plain multiply.  */
static tree
set_or_madd (tree first, tree a, tree b, tree c, bool fma)
{
  tree t = TREE_TYPE (c);
  return build3 (COND_EXPR, t, first, build2 (MULT_EXPR, t, a, b),
		 madd (unshare_expr (a), unshare_expr (b), c, fma));
}

/* A static void function NAME of the N parameter TYPES, with LIKE's
   context and optimization and target options (LIKE may be NULL).  */
static tree
static_fn (const char *name, int n, tree *types, tree like)
{
  tree ftype = build_function_type_array (void_type_node, n, types);
  location_t loc = like ? DECL_SOURCE_LOCATION (like) : input_location;
  tree fn = build_decl (loc, FUNCTION_DECL, get_identifier (name), ftype);
  SET_DECL_ASSEMBLER_NAME (fn, DECL_NAME (fn));
  TREE_STATIC (fn) = 1;
  TREE_PUBLIC (fn) = 0;
  DECL_EXTERNAL (fn) = 0;
  DECL_ARTIFICIAL (fn) = 1;
  DECL_IGNORED_P (fn) = 1;
  TREE_USED (fn) = 1;
  if (like)
    {
      DECL_CONTEXT (fn) = DECL_CONTEXT (like);
      DECL_FUNCTION_SPECIFIC_OPTIMIZATION (fn)
	  = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (like);
      DECL_FUNCTION_SPECIFIC_TARGET (fn) = DECL_FUNCTION_SPECIFIC_TARGET (like);
    }
  return fn;
}

/* FN's N parameters (TYPES, NAMES) into PARM and its void result.  */
static void
static_fn_parms (tree fn, int n, tree *types, const char *const *names,
		 tree *parm)
{
  location_t loc = DECL_SOURCE_LOCATION (fn);
  tree chain = NULL_TREE, *tail = &chain;
  for (int i = 0; i < n; i++)
    {
      parm[i]
	  = build_decl (loc, PARM_DECL, get_identifier (names[i]), types[i]);
      DECL_ARG_TYPE (parm[i]) = types[i];
      DECL_CONTEXT (parm[i]) = fn;
      TREE_USED (parm[i]) = 1;
      *tail = parm[i];
      tail = &DECL_CHAIN (parm[i]);
    }
  DECL_ARGUMENTS (fn) = chain;
  tree result = build_decl (loc, RESULT_DECL, NULL_TREE, void_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_IGNORED_P (result) = 1;
  DECL_CONTEXT (result) = fn;
  DECL_RESULT (fn) = result;
}

/* A version of the tiled function of TYPE named NAME, with LIKE's
   options (LIKE may be NULL), for the wide unit W (NULL: the command
   line's target, its preferred vector width, no explicit FMA).  */
static tree
build_version (te_type type, tree like, const char *name,
	       const te_tiled_wide *w)
{
  tree elem = type == TE_F64 ? double_type_node : float_type_node;
  tree lt = long_integer_type_node;
  tree cptr = build_pointer_type (build_qualified_type (elem, TYPE_QUAL_CONST));
  tree ptr = build_pointer_type (elem);
  tree types[13]
      = { lt, lt, lt, elem, cptr, lt, lt, cptr, lt, lt, ptr, lt, lt };
  const char *names[13] = { "m", "n",   "k",   "alpha", "a",   "sai", "sap",
			    "b", "sbp", "sbj", "c",     "ldc", "set" };
  location_t loc = like ? DECL_SOURCE_LOCATION (like) : input_location;
  tree fn = static_fn (name, 13, types, like);
  if (w)
    {
      /* As the C front end does for __attribute__ ((target (W))): the
	 hook sets the function's target options.  */
      tree args = build_tree_list (
	  NULL_TREE, build_string (strlen (w->target) + 1, w->target));
      DECL_ATTRIBUTES (fn)
	  = tree_cons (get_identifier ("target"), args, DECL_ATTRIBUTES (fn));
      DECL_FUNCTION_SPECIFIC_TARGET (fn) = NULL_TREE;
      if (!targetm.target_option.valid_attribute_p (
	      fn, get_identifier ("target"), args, 0))
	return NULL_TREE;
    }
  tree parm[13];
  static_fn_parms (fn, 13, types, names, parm);
  tree m = parm[0], n = parm[1], k = parm[2], alpha = parm[3], a = parm[4],
       sai = parm[5], sap = parm[6], bm = parm[7], sbp = parm[8], sbj = parm[9],
       c = parm[10], ldc = parm[11], setp = parm[12];

  tree saved = current_function_decl;
  push_struct_function (fn);
  builder bd = { fn, NULL_TREE, loc };
  builder *b = &bd;

  const int vb = w ? w->vbytes : vector_bytes (elem);
  const int vl = vb / (int) tree_to_uhwi (TYPE_SIZE_UNIT (elem));
  const bool fma = w != NULL;
  const int MR = w ? w->mr : TE_TILED_MR, NV = TE_TILED_NV, NR = NV * vl;
  const int KC = TE_TILED_KC, MC = TE_TILED_MC, NC = TE_TILED_NC_PANELS * NR;
  tree vt = build_vector_type (elem, vl);
  tree vtu = build_aligned_type (vt, TYPE_ALIGN (elem));

  tree jc = new_var (b, lt, "jc"), pc = new_var (b, lt, "pc"),
       ic = new_var (b, lt, "ic"), jr = new_var (b, lt, "jr"),
       ir = new_var (b, lt, "ir"), p = new_var (b, lt, "p"),
       x = new_var (b, lt, "x"), i = new_var (b, lt, "i"),
       j = new_var (b, lt, "j"), nc = new_var (b, lt, "nc"),
       kc = new_var (b, lt, "kc"), mc = new_var (b, lt, "mc"),
       mr = new_var (b, lt, "mr"), nr = new_var (b, lt, "nr"),
       first = new_var (b, lt, "first");
  tree pa = new_var (b, ptr, "pa"), pb = new_var (b, ptr, "pb"),
       ap = new_var (b, cptr, "ap"), bp = new_var (b, cptr, "bp"),
       cp = new_var (b, ptr, "cp"), s = new_var (b, elem, "s"),
       av = new_var (b, vt, "av"), alv = new_var (b, vt, "alv");
  tree scratch = new_var (b, build_array_type_nelts (elem, MR * NR), "t");
  TREE_ADDRESSABLE (scratch) = 1;
  tree acc[TE_TILED_MR_MAX][TE_TILED_NV], bv[TE_TILED_NV];
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      acc[r][v] = new_var (b, vt, "acc");
  for (int v = 0; v < NV; v++)
    bv[v] = new_var (b, vt, "bv");

  tree body = alloc_stmt_list ();
  /* The buffers: MIN (M, MC) rows and MIN (N, NC) columns, rounded up to
     whole panels, by MIN (K, KC).  */
  tree size = TYPE_SIZE_UNIT (elem);
  tree kmax = lmin (k, lng (KC));
  tree na = mul (round_to (lmin (m, lng (MC)), MR), kmax);
  tree nb = mul (round_to (lmin (n, lng (NC)), NR), kmax);
  tree free_fn = builtin_decl_explicit (BUILT_IN_FREE);
  append_to_statement_list (set (pa, alloc_of (ptr, na)), &body);
  append_to_statement_list (set (pb, alloc_of (ptr, nb)), &body);

  /* Step 4 of tiled.h: no buffers, the sums unpacked.  */
  tree aip = at (a, add (mul (i, sai), mul (add (pc, p), sap)));
  tree bpj = at (bm, add (mul (add (pc, p), sbp), mul (j, sbj)));
  tree cij = at (c, add (mul (i, ldc), j));
  tree sum_p = stmts2 (
      set (s, build_zero_cst (elem)),
      for_loop (p, lng (0), kc, lng (1), set (s, madd (aip, bpj, s, fma))));
  /* The set form (SET nonzero, the first block of terms): C = alpha *
     it, C's old value not read (a plain multiply, no fused
     multiply-add); FIRST is set per block.  */
  tree first_p = build2 (NE_EXPR, boolean_type_node, first, lng (0));
  tree first_set = set (
      first,
      fold_convert (lt,
		    build2 (TRUTH_ANDIF_EXPR, boolean_type_node,
			    build2 (NE_EXPR, boolean_type_node, setp, lng (0)),
			    build2 (EQ_EXPR, boolean_type_node, pc, lng (0)))));
  append_to_statement_list (
      set (cij, set_or_madd (first_p, alpha, s, cij, fma)), &sum_p);
  tree per_pc_unpacked = alloc_stmt_list ();
  append_to_statement_list (
      set (kc, lmin (fold_build2 (MINUS_EXPR, lt, k, pc), lng (KC))),
      &per_pc_unpacked);
  append_to_statement_list (first_set, &per_pc_unpacked);
  append_to_statement_list (for_loop (i, lng (0), m, lng (1),
				      for_loop (j, lng (0), n, lng (1), sum_p)),
			    &per_pc_unpacked);
  tree unpacked = for_loop (pc, lng (0), k, lng (KC), per_pc_unpacked);

  /* Step 3: one tile at panels ir (of A) and jr (of B).  */
  tree tile = alloc_stmt_list ();
  append_to_statement_list (set (ap, plus (pa, mul (ir, kc))), &tile);
  append_to_statement_list (set (bp, plus (pb, mul (jr, kc))), &tile);
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      append_to_statement_list (set (acc[r][v], build_zero_cst (vt)), &tile);
  tree step = alloc_stmt_list ();
  for (int v = 0; v < NV; v++)
    append_to_statement_list (set (bv[v], vat (vtu, bp, lng (v * vl))), &step);
  for (int r = 0; r < MR; r++)
    {
      vec<constructor_elt, va_gc> *els = NULL;
      tree ar = at (ap, lng (r));
      tree sv = new_var (b, elem, "ar");
      append_to_statement_list (set (sv, ar), &step);
      for (int l = 0; l < vl; l++)
	CONSTRUCTOR_APPEND_ELT (els, NULL_TREE, sv);
      append_to_statement_list (set (av, build_constructor (vt, els)), &step);
      for (int v = 0; v < NV; v++)
	append_to_statement_list (
	    set (acc[r][v], madd (av, bv[v], acc[r][v], fma)), &step);
    }
  append_to_statement_list (
      set (ap,
	   fold_build_pointer_plus (ap, size_int (MR * tree_to_uhwi (size)))),
      &step);
  append_to_statement_list (
      set (bp,
	   fold_build_pointer_plus (bp, size_int (NR * tree_to_uhwi (size)))),
      &step);
  append_to_statement_list (for_loop (p, lng (0), kc, lng (1), step), &tile);
  append_to_statement_list (
      set (cp, plus (c, add (mul (add (ic, ir), ldc), add (jc, jr)))), &tile);
  append_to_statement_list (
      set (mr, lmin (fold_build2 (MINUS_EXPR, lt, mc, ir), lng (MR))), &tile);
  append_to_statement_list (
      set (nr, lmin (fold_build2 (MINUS_EXPR, lt, nc, jr), lng (NR))), &tile);
  /* A full tile: C += alpha * tile (C = in the set form's first block),
     a vector at a time.  */
  tree full = alloc_stmt_list ();
  vec<constructor_elt, va_gc> *als = NULL;
  for (int l = 0; l < vl; l++)
    CONSTRUCTOR_APPEND_ELT (als, NULL_TREE, alpha);
  append_to_statement_list (set (alv, build_constructor (vt, als)), &full);
  tree full_add = alloc_stmt_list (), full_set = alloc_stmt_list ();
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      {
	tree cv = vat (vtu, cp, add (mul (lng (r), ldc), lng (v * vl)));
	append_to_statement_list (set (cv, madd (alv, acc[r][v], cv, fma)),
				  &full_add);
	append_to_statement_list (
	    set (unshare_expr (cv), build2 (MULT_EXPR, vt, alv, acc[r][v])),
	    &full_set);
      }
  append_to_statement_list (build3 (COND_EXPR, void_type_node,
				    unshare_expr (first_p), full_set, full_add),
			    &full);
  /* An edge tile: the tile into scratch T, then element by element.  */
  tree edge = alloc_stmt_list ();
  tree taddr = build_fold_addr_expr (scratch);
  taddr = fold_convert (ptr, taddr);
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      append_to_statement_list (
	  set (vat (vtu, taddr, lng (r * NR + v * vl)), acc[r][v]), &edge);
  tree cpij = at (cp, add (mul (i, ldc), j));
  tree tij = at (taddr, add (mul (i, lng (NR)), j));
  append_to_statement_list (
      for_loop (i, lng (0), mr, lng (1),
		for_loop (j, lng (0), nr, lng (1),
			  set (cpij, set_or_madd (unshare_expr (first_p), alpha,
						  tij, cpij, fma)))),
      &edge);
  append_to_statement_list (
      build3 (COND_EXPR, void_type_node,
	      build2 (TRUTH_ANDIF_EXPR, boolean_type_node,
		      build2 (EQ_EXPR, boolean_type_node, mr, lng (MR)),
		      build2 (EQ_EXPR, boolean_type_node, nr, lng (NR))),
	      full, edge),
      &tile);

  /* Steps 1-3.  */
  pack pkb = { pb, bm, sbj, sbp, jc, nc, pc, lng (NR) };
  pack pka = { pa, a, sai, sap, ic, mc, pc, lng (MR) };
  tree per_ic = alloc_stmt_list ();
  append_to_statement_list (
      set (mc, lmin (fold_build2 (MINUS_EXPR, lt, m, ic), lng (MC))), &per_ic);
  append_to_statement_list (pack_block (b, &pka, kc, ir, p, x), &per_ic);
  append_to_statement_list (
      for_loop (jr, lng (0), nc, lng (NR),
		for_loop (ir, lng (0), mc, lng (MR), tile)),
      &per_ic);
  tree per_pc = alloc_stmt_list ();
  append_to_statement_list (
      set (kc, lmin (fold_build2 (MINUS_EXPR, lt, k, pc), lng (KC))), &per_pc);
  append_to_statement_list (unshare_expr (first_set), &per_pc);
  append_to_statement_list (pack_block (b, &pkb, kc, jr, p, x), &per_pc);
  append_to_statement_list (for_loop (ic, lng (0), m, lng (MC), per_ic),
			    &per_pc);
  tree per_jc = alloc_stmt_list ();
  append_to_statement_list (
      set (nc, lmin (fold_build2 (MINUS_EXPR, lt, n, jc), lng (NC))), &per_jc);
  append_to_statement_list (for_loop (pc, lng (0), k, lng (KC), per_pc),
			    &per_jc);
  tree packed = for_loop (jc, lng (0), n, lng (NC), per_jc);

  tree have = build2 (
      TRUTH_ANDIF_EXPR, boolean_type_node,
      build2 (NE_EXPR, boolean_type_node, pa, build_int_cst (ptr, 0)),
      build2 (NE_EXPR, boolean_type_node, pb, build_int_cst (ptr, 0)));
  append_to_statement_list (
      build3 (COND_EXPR, void_type_node, have, packed, unpacked), &body);
  append_to_statement_list (build_call_expr (free_fn, 1, pa), &body);
  append_to_statement_list (build_call_expr (free_fn, 1, pb), &body);

  tree block = make_node (BLOCK);
  BLOCK_VARS (block) = b->locals;
  BLOCK_SUPERCONTEXT (block) = fn;
  DECL_INITIAL (fn) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, b->locals, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fn) = bind;
  gimplify_function_tree (fn);
  pop_cfun ();
  current_function_decl = saved;
  return fn;
}

/* ---- run-time dispatch ------------------------------------------------- */

/* The target builtin NAME (__builtin_cpu_init, __builtin_cpu_supports),
   found among the target's builtins by its name (their codes are in a
   header the plugin's headers do not include), or NULL.  */
static tree
target_builtin (const char *name)
{
  for (unsigned code = 0; code < 100000; code++)
    {
      tree d = targetm.builtin_decl (code, true);
      if (d == error_mark_node)
	return NULL_TREE;
      if (d && DECL_NAME (d)
	  && !strcmp (IDENTIFIER_POINTER (DECL_NAME (d)), name))
	return d;
    }
  return NULL_TREE;
}

/* __builtin_cpu_supports (FEATURES), each of the comma-separated
   FEATURES, with CPU_SUPPORTS its declaration.  */
static tree
cpu_supports (tree cpu_supports, const char *features)
{
  tree all = NULL_TREE;
  char buf[64];
  snprintf (buf, sizeof buf, "%s", features);
  for (char *f = strtok (buf, ","); f; f = strtok (NULL, ","))
    {
      tree call = build_call_expr (cpu_supports, 1,
				   build_string_literal (strlen (f) + 1, f));
      tree test = build2 (NE_EXPR, boolean_type_node, call, integer_zero_node);
      all = all ? build2 (TRUTH_ANDIF_EXPR, boolean_type_node, all, test)
		: test;
    }
  return all;
}

/* The ifunc resolver NAME of the versions WIDE[0..N) (null when the
   target refused one) and DEFAULT_FN: after __builtin_cpu_init, the
   address of the first version whose features the CPU has, or of
   DEFAULT_FN.  NULL when the target has no such builtins.  */
static tree
build_resolver (const char *name, tree *wide, const te_tiled_wide *ws, int n,
		tree default_fn)
{
  tree init = target_builtin ("__builtin_cpu_init");
  tree supports = target_builtin ("__builtin_cpu_supports");
  if (!init || !supports)
    return NULL_TREE;
  location_t loc = DECL_SOURCE_LOCATION (default_fn);
  tree ftype = build_function_type_list (ptr_type_node, NULL_TREE);
  tree fn = build_decl (loc, FUNCTION_DECL, get_identifier (name), ftype);
  SET_DECL_ASSEMBLER_NAME (fn, DECL_NAME (fn));
  TREE_STATIC (fn) = 1;
  TREE_PUBLIC (fn) = 0;
  DECL_EXTERNAL (fn) = 0;
  DECL_ARTIFICIAL (fn) = 1;
  DECL_IGNORED_P (fn) = 1;
  DECL_UNINLINABLE (fn) = 1;
  /* Not instrumented by any sanitizer (no_sanitize of every flag, as
     sanitize_flags_p reads it): the dynamic linker runs a resolver
     before the sanitizers' run-time is set up, and -fsanitize=address's
     checks crashed it.  */
  DECL_ATTRIBUTES (fn)
      = tree_cons (get_identifier ("no_sanitize"),
                   build_int_cst (unsigned_type_node, -1), DECL_ATTRIBUTES (fn));
  TREE_USED (fn) = 1;
  DECL_CONTEXT (fn) = DECL_CONTEXT (default_fn);
  tree result = build_decl (loc, RESULT_DECL, NULL_TREE, ptr_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_IGNORED_P (result) = 1;
  DECL_CONTEXT (result) = fn;
  DECL_RESULT (fn) = result;

  tree saved = current_function_decl;
  push_struct_function (fn);
  tree body = alloc_stmt_list ();
  append_to_statement_list (build_call_expr (init, 0), &body);
  for (int i = 0; i <= n; i++)
    {
      tree target = i < n ? wide[i] : default_fn;
      if (!target)
	continue;
      tree ret = build1 (
	  RETURN_EXPR, void_type_node,
	  build2 (MODIFY_EXPR, ptr_type_node, result,
		  fold_convert (ptr_type_node, build_fold_addr_expr (target))));
      append_to_statement_list (
	  i < n ? build3 (COND_EXPR, void_type_node,
			  cpu_supports (supports, ws[i].target), ret, NULL_TREE)
		: ret,
	  &body);
    }
  tree block = make_node (BLOCK);
  BLOCK_SUPERCONTEXT (block) = fn;
  DECL_INITIAL (fn) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, NULL_TREE, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fn) = bind;
  gimplify_function_tree (fn);
  pop_cfun ();
  current_function_decl = saved;
  return fn;
}

/* Whether the tiled function gets wide versions chosen at run time:
   an x86-64 target whose assembler and C library have ifuncs.  */
static bool
dispatch_p (void)
{
#ifdef TARGET_AVX512F
  return TARGET_64BIT && targetm.has_ifunc_p ();
#else
  return false;
#endif
}

tree
tiled_build (te_type type, tree like, tree *pending)
{
  const char *name
      = type == TE_F64 ? "tensorgrad.tiled.f64" : "tensorgrad.tiled.f32";
  if (!dispatch_p ())
    {
      tree fn = build_version (type, like, name, NULL);
      *pending = tree_cons (NULL_TREE, fn, *pending);
      if (dump_file)
	fprintf (dump_file, "tiled: %s: one version\n", name);
      return fn;
    }
  /* Step 5 of tiled.h: the versions, the resolver, and the name calls
     use an ifunc of the resolver, as GCC's target_clones makes it
     (multiple_target.cc): the versions are separate bodies, not clones
     of one, because each one's vector type has its own width.  */
  static const te_tiled_wide ws[TE_TILED_NWIDE] = TE_TILED_WIDE;
  char buf[64];
  snprintf (buf, sizeof buf, "%s.default", name);
  tree dflt = build_version (type, like, buf, NULL);
  *pending = tree_cons (NULL_TREE, dflt, *pending);
  tree wide[TE_TILED_NWIDE];
  for (int i = 0; i < TE_TILED_NWIDE; i++)
    {
      snprintf (buf, sizeof buf, "%s.%s", name, ws[i].suffix);
      wide[i] = build_version (type, like, buf, &ws[i]);
      if (wide[i])
	*pending = tree_cons (NULL_TREE, wide[i], *pending);
    }
  snprintf (buf, sizeof buf, "%s.resolver", name);
  tree resolver = build_resolver (buf, wide, ws, TE_TILED_NWIDE, dflt);
  if (!resolver)
    {
      if (dump_file)
	fprintf (dump_file,
		 "tiled: %s: one version (no __builtin_cpu_supports)\n", name);
      return dflt;
    }
  if (dump_file)
    {
      fprintf (dump_file, "tiled: %s: versions", name);
      for (int i = 0; i < TE_TILED_NWIDE; i++)
	if (wide[i])
	  fprintf (dump_file, " %s (%s),", ws[i].suffix, ws[i].target);
      fprintf (dump_file, " default, chosen at run time by an ifunc\n");
    }
  tree alias = build_decl (DECL_SOURCE_LOCATION (dflt), FUNCTION_DECL,
			   get_identifier (name), TREE_TYPE (dflt));
  SET_DECL_ASSEMBLER_NAME (alias, DECL_NAME (alias));
  TREE_STATIC (alias) = 1;
  TREE_PUBLIC (alias) = 0;
  DECL_EXTERNAL (alias) = 0;
  DECL_ARTIFICIAL (alias) = 1;
  DECL_IGNORED_P (alias) = 1;
  TREE_USED (alias) = 1;
  DECL_CONTEXT (alias) = DECL_CONTEXT (dflt);
  DECL_ATTRIBUTES (alias) = make_attribute (
      "ifunc", IDENTIFIER_POINTER (DECL_NAME (resolver)), NULL_TREE);
  /* The resolver's entry says which alias to make once it is in the
     call graph (tiled_hand_over).  */
  *pending = tree_cons (alias, resolver, *pending);
  return alias;
}

void
tiled_hand_over (tree alias, tree resolver)
{
  /* As GCC's make_resolver_func, but resolved at once: C does not
     resolve the C++ front end's implicit aliases.  */
  cgraph_node *n = cgraph_node::create_alias (alias, resolver);
  n->resolve_alias (cgraph_node::get (resolver));
}

tree
tiled_gemm_adapter (te_type type, tree tiled, tree like, tree *pending)
{
  tree elem = type == TE_F64 ? double_type_node : float_type_node;
  tree it = integer_type_node, lt = long_integer_type_node;
  tree cptr = build_pointer_type (build_qualified_type (elem, TYPE_QUAL_CONST));
  tree ptr = build_pointer_type (elem);
  tree types[14] = { it, it, it, it, it, it, elem, cptr, it, cptr, it, elem,
                     ptr, it };
  const char *names[14] = { "order", "ta", "tb",  "m",    "n", "k", "alpha",
                            "a",     "lda", "b", "ldb", "beta", "c", "ldc" };
  location_t loc = like ? DECL_SOURCE_LOCATION (like) : input_location;
  const char *name
      = type == TE_F64 ? "tensorgrad.wgemm.f64" : "tensorgrad.wgemm.f32";
  tree fn = static_fn (name, 14, types, like);
  TREE_ADDRESSABLE (fn) = 1;
  tree parm[14];
  static_fn_parms (fn, 14, types, names, parm);
  tree saved = current_function_decl;
  push_struct_function (fn);
  tree one = build_int_cst (lt, 1), trans = build_int_cst (it, 112);
  /* A transposed operand is its strides swapped (tiled.h).  */
  tree ta = build2 (EQ_EXPR, boolean_type_node, parm[1], trans);
  tree tb = build2 (EQ_EXPR, boolean_type_node, parm[2], trans);
  tree lda = fold_convert (lt, parm[8]), ldb = fold_convert (lt, parm[10]);
  tree args[13] = {
    fold_convert (lt, parm[3]), fold_convert (lt, parm[4]),
    fold_convert (lt, parm[5]), parm[6], parm[7],
    build3 (COND_EXPR, lt, ta, one, lda), build3 (COND_EXPR, lt, ta, lda, one),
    parm[9], build3 (COND_EXPR, lt, tb, one, ldb),
    build3 (COND_EXPR, lt, tb, ldb, one), parm[12],
    fold_convert (lt, parm[13]),
    fold_convert (lt, build2 (EQ_EXPR, boolean_type_node, parm[11],
                              build_zero_cst (elem)))
  };
  tree body = build_call_expr_loc_array (loc, tiled, 13, args);
  tree block = make_node (BLOCK);
  BLOCK_SUPERCONTEXT (block) = fn;
  DECL_INITIAL (fn) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, NULL_TREE, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fn) = bind;
  gimplify_function_tree (fn);
  pop_cfun ();
  current_function_decl = saved;
  *pending = tree_cons (NULL_TREE, fn, *pending);
  return fn;
}
