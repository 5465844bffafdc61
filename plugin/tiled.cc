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

   Limits: the width is the command line's target (the preferred SIMD
   mode), not a kernel's target attribute.  */

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
   ? SRC[(R + START + x) * SX + (P0 + p) * SP] : 0.  */
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
  tree inner = for_loop (x, lng (0), k->w, lng (1), set (dst, val));
  (void) b;
  return for_loop (r, lng (0), k->count, k->w,
		   for_loop (p, lng (0), kc, lng (1), inner));
}

tree
tiled_build (te_type type, tree like)
{
  tree elem = type == TE_F64 ? double_type_node : float_type_node;
  tree lt = long_integer_type_node;
  tree cptr = build_pointer_type (build_qualified_type (elem, TYPE_QUAL_CONST));
  tree ptr = build_pointer_type (elem);
  tree types[13]
      = { lt, lt, lt, elem, cptr, lt, lt, cptr, lt, lt, ptr, lt, lt };
  const char *names[13] = { "m", "n",   "k",   "alpha", "a",   "sai", "sap",
			    "b", "sbp", "sbj", "c",     "ldc", "set" };
  tree ftype = build_function_type_array (void_type_node, 13, types);
  location_t loc = like ? DECL_SOURCE_LOCATION (like) : input_location;
  tree name = get_identifier (type == TE_F64 ? "tensorgrad.tiled.f64"
					     : "tensorgrad.tiled.f32");
  tree fn = build_decl (loc, FUNCTION_DECL, name, ftype);
  SET_DECL_ASSEMBLER_NAME (fn, name);
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
  tree parm[13], chain = NULL_TREE, *tail = &chain;
  for (int i = 0; i < 13; i++)
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
  tree m = parm[0], n = parm[1], k = parm[2], alpha = parm[3], a = parm[4],
       sai = parm[5], sap = parm[6], bm = parm[7], sbp = parm[8], sbj = parm[9],
       c = parm[10], ldc = parm[11], setp = parm[12];

  tree saved = current_function_decl;
  push_struct_function (fn);
  builder bd = { fn, NULL_TREE, loc };
  builder *b = &bd;

  const int vb = vector_bytes (elem);
  const int vl = vb / (int) tree_to_uhwi (TYPE_SIZE_UNIT (elem));
  const int MR = TE_TILED_MR, NV = TE_TILED_NV, NR = NV * vl;
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
  tree acc[TE_TILED_MR][TE_TILED_NV], bv[TE_TILED_NV];
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
      for_loop (p, lng (0), kc, lng (1), set (s, add (s, mul (aip, bpj)))));
  /* The set form (SET nonzero, the first block of terms): C's old
     value is 0, not read.  */
  tree first_p = build2 (NE_EXPR, boolean_type_node, first, lng (0));
  append_to_statement_list (set (cij, add (build3 (COND_EXPR, elem, first_p,
						   build_zero_cst (elem), cij),
					   mul (alpha, s))),
			    &sum_p);
  tree first_set = set (
      first,
      fold_convert (lt,
		    build2 (TRUTH_ANDIF_EXPR, boolean_type_node,
			    build2 (NE_EXPR, boolean_type_node, setp, lng (0)),
			    build2 (EQ_EXPR, boolean_type_node, pc, lng (0)))));
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
	    set (acc[r][v], build2 (PLUS_EXPR, vt, acc[r][v],
				    build2 (MULT_EXPR, vt, av, bv[v]))),
	    &step);
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
	tree t = build2 (MULT_EXPR, vt, alv, acc[r][v]);
	append_to_statement_list (set (cv, build2 (PLUS_EXPR, vt, cv, t)),
				  &full_add);
	append_to_statement_list (set (unshare_expr (cv), unshare_expr (t)),
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
			  set (cpij, add (build3 (COND_EXPR, elem,
						  unshare_expr (first_p),
						  build_zero_cst (elem), cpij),
					  mul (alpha, tij))))),
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
