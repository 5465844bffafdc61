"""tggen -- the random kernel generator of tgfuzz.

A kernel is built from a stream of integer choices (Choices): every
random decision is one draw, and a draw of 0 is always the simplest option
(fewer stages, a leaf instead of an expression, no refused construct), so
the reducer can shrink a failing kernel by shortening the stream and
lowering its values: any stream gives a valid kernel.

The text uses three markers that render() replaces, so that one text gives
the kernel (float or double) and its double-precision reference:
  $T        the kernel's floating type
  $Kname    a kernel's name (ref_name in the reference)
  name$(    a math function (expf in a float kernel), 0.5$ a literal (0.5f)
Expressions and their bounds are in tgexpr.py, the block-structured
stages (rows, optional inputs, counts, tiles, carried state, if/else
reductions, loops counting down) in tgblocks.py, the constructs refused
today in tgrefused.py.  A kernel's plan (its type, its stages and each
stage's draws, Gen.new_plan) is what --reduce shrinks.
"""

import math
import re

from tgexpr import (Arr, Choices, Dim, Exprs, flat, ival_mul,  # noqa: F401
                    lit)
from tgblocks import Blocks
from tgrefused import Refused

EXTENTS = [3, 2, 1, 4, 5, 7, 6]


class Kernel:
    """What the harness needs: parameters (dicts with kind int, scal, in,
    out, inout, idx), the text, tags, the return."""

    def __init__(self):
        self.params = []
        self.helpers = []
        self.decls = []
        self.body = []
        self.tags = set()
        self.ret = None
        self.real = "double"
        self.name = "kern"
        self.omp = False


class Gen(Exprs, Blocks, Refused):
    # Variations that give a wrong gradient today, generated only with
    # --known-bugs (so that a default run stays a regression check):
    # their names, and the reduced kernel of each.  None at present (the
    # last, a row's sum cached after a later loop rewrote what it summed,
    # was fixed in version.c).
    KNOWN_WRONG = {}

    def __init__(self, rng=None, plan=None, only=None, known=False):
        self.rng = rng
        self.plan = plan
        self.only = only
        self.known = known
        self.ch = None
        self.k = Kernel()
        self.pool = []          # readable arrays
        self.scalars = []       # readable scalars: (text, lo, hi)
        self.dims = []
        self.count = 0
        self.nhelper = 0
        self.has_out = False

    # -- names, tags, parameters -----------------------------------------
    def fresh(self, p):
        self.count += 1
        return "%s%d" % (p, self.count)

    def tag(self, t):
        self.k.tags.add(t)

    def new_dim(self, v=None, reuse=True, minv=1):
        ch = self.ch
        if v is None and reuse:
            cand = [d for d in self.dims if d.v >= minv]
            if cand and not ch.chance(0.35):
                return ch.pick(cand)
        if v is None:
            v = EXTENTS[ch.draw(len(EXTENTS))]
            v = max(v, minv)
        if ch.chance(0.25):
            d = Dim(str(v), v)
            self.tag("const-size")
        else:
            name = self.fresh("n")
            self.k.params.append({"kind": "int", "name": name, "v": v})
            d = Dim(name, v)
        self.dims.append(d)
        return d

    def new_input(self, dims, dom=None, vla=False):
        ch = self.ch
        lo, hi = dom or ch.pick([(-1.0, 1.0), (0.25, 2.0), (-2.0, 2.0),
                                 (-1.5, -0.25)])
        name = self.fresh("x")
        n = 1
        for d in dims:
            n *= d.v
        self.k.params.append({"kind": "in", "name": name, "n": n,
                              "lo": lo, "hi": hi})
        if vla:
            self.k.params[-1]["vla"] = "".join("[%s]" % d.text for d in dims)
            self.tag("vla-param")
        a = Arr(name, dims, lo, hi, "in", vla)
        self.pool.append(a)
        return a

    def get_array(self, dims, dom=None, vla_ok=False):
        """An array of extents DIMS to read: one the kernel has, or a new
        input (VLA_OK: maybe a VLA parameter T x[n][m], read as x[i][j])."""
        cand = [a for a in self.pool
                if len(a.dims) == len(dims) and (vla_ok or not a.vla)
                and all(x is y for x, y in zip(a.dims, dims))]
        if dom:
            cand = [a for a in cand if a.lo >= dom[0] and a.hi <= dom[1]]
        if cand and self.ch.chance(0.6):
            a = self.ch.pick(cand)
            if a.kind in ("out", "inout"):
                self.tag("output-readback")
            if a.kind == "tmp":
                self.tag("local-array")
            return a
        vla = vla_ok and len(dims) == 2 and self.ch.chance(0.25)
        return self.new_input(dims, dom, vla)

    def scalar_param(self, lo=-1.5, hi=1.5):
        name = self.fresh("a")
        self.k.params.append({"kind": "scal", "name": name, "lo": lo,
                              "hi": hi, "n": 1})
        self.tag("scalar-param")
        self.scalars.append((name, lo, hi))
        return (name, lo, hi)

    def new_dest(self, dims, lo, hi, readable=True, allow_tmp=True,
                 tmp=False):
        """Where a nest stores: an output parameter or a local array
        (always with TMP)."""
        n = 1
        for d in dims:
            n *= d.v
        if tmp or (allow_tmp and self.ch.chance(0.35)):
            name = self.fresh("t")
            size = "*".join(d.text for d in dims)
            if all(d.text.isdigit() for d in dims):
                size = str(n)
            else:
                self.tag("vla")
            self.k.decls.append("  $T %s[%s];" % (name, size))
            a = Arr(name, dims, lo, hi, "tmp")
        else:
            name = self.fresh("y")
            self.k.params.append({"kind": "out", "name": name, "n": n})
            a = Arr(name, dims, lo, hi, "out")
            self.has_out = True
        if readable:
            self.pool.append(a)
        return a

    def out_param(self, n, readable_dims=None, lo=-1, hi=1):
        name = self.fresh("y")
        self.k.params.append({"kind": "out", "name": name, "n": n})
        self.has_out = True
        if readable_dims:
            a = Arr(name, readable_dims, lo, hi, "out")
            self.pool.append(a)
        return name

    def emit(self, lines):
        self.k.body.extend(lines)

    def leaves_for(self, dims, idx, n_src=None):
        """Leaves indexed by IDX over DIMS: arrays of those extents,
        broadcasts of one axis, scalars."""
        ch = self.ch
        leaves = []
        a = self.get_array(dims, vla_ok=True)
        leaves.append((a.at(idx), a.lo, a.hi))
        if ch.chance(0.4):
            b = self.get_array(dims, vla_ok=True)
            leaves.append((b.at(idx), b.lo, b.hi))
        if len(dims) == 2 and ch.chance(0.4):
            ax = ch.draw(2)
            b = self.get_array([dims[ax]])
            leaves.append((b.name + "[" + idx[ax] + "]", b.lo, b.hi))
            self.tag("broadcast")
        if ch.chance(0.25):
            leaves.append(self.scalar_param())
        elif self.scalars and ch.chance(0.3):
            leaves.append(ch.pick(self.scalars))
        return leaves

    # -- stages ----------------------------------------------------------
    def loops(self, vars_dims, inner, indent=1, order=None):
        """Perfect nest over VARS_DIMS [(var, bound text)], body INNER."""
        out = []
        pad = "  " * indent
        for k, (v, b) in enumerate(vars_dims):
            out.append(pad + "  " * k + "for (int %s = 0; %s < %s; %s++)"
                       % (v, v, b, v))
        p2 = pad + "  " * len(vars_dims)
        if len(inner) == 1:
            out.append(p2 + inner[0])
        else:
            out.append(p2[:-2] + "  {" if vars_dims else p2 + "{")
            out.extend(p2 + "  " + l for l in inner)
            out.append(p2[:-2] + "  }" if vars_dims else p2 + "}")
        return out

    def st_elementwise(self):
        ch = self.ch
        rank = 1 + ch.draw(2)
        dims = [self.new_dim() for _ in range(rank)]
        idx = ["i", "j"][:rank]
        leaves = self.leaves_for(dims, idx)
        rowptr = None
        if rank == 2 and "][" not in leaves[0][0] and ch.chance(0.3):
            # a pointer to the row of the first leaf's array
            name = leaves[0][0].split("[")[0]
            rowptr = self.fresh("r")
            leaves[0] = (rowptr + "[j]", leaves[0][1], leaves[0][2])
            self.tag("row-pointer")
        self.tag("elementwise")
        e = self.body_expr(leaves)
        ifelse = ch.chance(0.12)
        if ifelse:
            e2 = self.body_expr(leaves, 1)
            lo, hi = min(e[1], e2[1]), max(e[2], e2[2])
        else:
            lo, hi = e[1], e[2]
        dest = self.new_dest(dims, lo, hi)
        store = dest.name + "[" + flat(dims, idx) + "]"
        if ifelse:
            self.tag("if-else")
            c = ch.pick(leaves)
            inner = ["if (%s > %s)" % (c[0], lit((c[1] + c[2]) / 2 + 0.013)),
                     "  %s = %s;" % (store, e[0]), "else",
                     "  %s = %s;" % (store, e2[0])]
        else:
            inner = ["%s = %s;" % (store, e[0])]
        if rowptr:
            inner = ["const $T *%s = %s + i*%s;" % (rowptr, name,
                                                   dims[1].text)]
            body = self.loops([("j", dims[1].text)], [inner_l for inner_l in
                              (["%s = %s;" % (store, e[0])] if not ifelse
                               else ["%s = %s;" % (store, e[0])])], 0)
            inner = inner + body
            self.emit(self.loops([("i", dims[0].text)], inner))
        else:
            self.emit(self.loops(list(zip(idx, [d.text for d in dims])),
                                 inner))

    def st_omp(self):
        """Loops under OpenMP directives (compiled with -fopenmp): the
        kernel means its serial loops, the forward runs in parallel."""
        ch = self.ch
        self.k.omp = True
        form = ch.pick(["rows", "collapse", "rowsum", "total", "simd",
                        "region"])
        self.tag("omp-" + form)
        sched = ch.pick(["", " schedule(static)", " schedule(dynamic, 2)",
                         " schedule(guided)"])
        d0, d1 = self.new_dim(), self.new_dim()
        if form in ("rows", "collapse", "region"):
            leaves = self.leaves_for([d0, d1], ["i", "j"])
            e = self.body_expr(leaves)
            dest = self.new_dest([d0, d1], e[1], e[2])
            store = "%s[%s] = %s;" % (dest.name, flat([d0, d1], ["i", "j"]),
                                      e[0])
            nest = self.loops([("i", d0.text), ("j", d1.text)], [store])
            if form == "region":
                e2 = self.unary(("%s[%s]" % (dest.name,
                                             flat([d0, d1], ["i", "j"])),
                                 e[1], e[2]))
                dest2 = self.new_dest([d0, d1], e2[1], e2[2],
                                      allow_tmp=False)
                nest2 = self.loops([("i", d0.text), ("j", d1.text)],
                                   ["%s[%s] = %s;" % (
                                       dest2.name, flat([d0, d1], ["i", "j"]),
                                       e2[0])])
                self.emit(["#pragma omp parallel", "  {",
                           "#pragma omp for" + sched]
                          + ["  " + l for l in nest]
                          + ["#pragma omp for"]
                          + ["  " + l for l in nest2] + ["  }"])
                return
            clause = " collapse(2)" if form == "collapse" else ""
            self.emit(["#pragma omp parallel for" + clause + sched] + nest)
            return
        if form == "simd":
            leaves = self.leaves_for([d0], ["i"])
            e = self.body_expr(leaves)
            dest = self.new_dest([d0], e[1], e[2])
            self.emit(["#pragma omp simd"]
                      + self.loops([("i", d0.text)],
                                   ["%s[i] = %s;" % (dest.name, e[0])]))
            return
        leaves = self.leaves_for([d0, d1], ["i", "j"])
        term = self.red_term("sum", self.body_expr(leaves, ch.draw(3)))
        acc = self.fresh("s")
        if form == "rowsum":
            lo, hi = self.red_range("sum", term, d1.v)
            dest = self.new_dest([d0], lo, hi)
            self.emit(["#pragma omp parallel for" + sched]
                      + self.loops([("i", d0.text)],
                                   ["$T %s = 0.0$;" % acc]
                                   + self.loops([("j", d1.text)],
                                                ["%s += %s;" % (acc,
                                                                term[0])], 0)
                                   + ["%s[i] = %s;" % (dest.name, acc)]))
            return
        lo, hi = self.red_range("sum", term, d0.v * d1.v)
        self.emit(["  $T %s = 0.0$;" % acc,
                   "#pragma omp parallel for reduction(+:%s)%s" % (acc,
                                                                  sched)]
                  + self.loops([("i", d0.text), ("j", d1.text)],
                               ["%s += %s;" % (acc, term[0])]))
        self.finish_scalar(acc, lo, hi)

    def reduce_parts(self, op, acc, term, style):
        """Init and update statements of reduction OP of TERM into ACC."""
        if op == "sum":
            if self.ch.chance(0.15):
                # Subtracting the negated term: the sum, whose range the
                # callers computed before this draw (s -= term gave the
                # negated range, and log1p of it a NaN).
                self.tag("reduce-minus")
                return "0.0$", ["%s -= -(%s);" % (acc, term)]
            return "0.0$", ["%s += %s;" % (acc, term)]
        if op == "prod":
            return "1.0$", ["%s *= %s;" % (acc, term)]
        big = "-1e30$" if op == "max" else "1e30$"
        cmp = ">" if op == "max" else "<"
        if style == 0:
            f = "fmax" if op == "max" else "fmin"
            self.tag("f-" + f)
            return big, ["%s = %s%s, %s);" % (acc, self.fname(f), acc, term)]
        if style == 1:
            self.tag("compare-assign")
            return big, ["if (%s %s %s)" % (term, cmp, acc),
                         "  %s = %s;" % (acc, term)]
        self.tag("select")
        return big, ["%s = %s %s %s ? %s : %s;" % (acc, term, cmp, acc, term,
                                                   acc)]

    def red_term(self, op, e):
        if op == "prod":
            t, lo, hi = e
            if lo < 0.5 or hi > 1.5:
                return ("(1.0$ + 0.25$*tanh$(%s))" % t, 0.75, 1.25)
        return self.fix_bounded(e, 3.0)

    def red_range(self, op, term, n):
        lo, hi = term[1], term[2]
        if op == "sum":
            return min(n * lo, lo, 0), max(n * hi, hi, 0)
        if op == "prod":
            return min(lo ** n, lo), max(hi ** n, hi)
        return lo, hi

    def st_reduce(self):
        ch = self.ch
        op = ch.pick(["sum", "max", "prod", "min"])
        self.tag("reduce-" + op)
        axis = ch.pick(["1", "0", "all"])
        d0, d1 = self.new_dim(), self.new_dim()
        dims = [d0, d1]
        leaves = self.leaves_for(dims, ["i", "j"])
        term = self.red_term(op, self.body_expr(leaves, ch.draw(3)))
        style = ch.draw(3)
        into_elem = op in ("sum", "prod") and axis != "all" and ch.chance(0.3)
        if axis == "all":
            self.tag("reduce-all")
            n = d0.v * d1.v
            acc = self.fresh("s")
            init, upd = self.reduce_parts(op, acc, term[0], style)
            lo, hi = self.red_range(op, term, n)
            self.emit(["  $T %s = %s;" % (acc, init)])
            self.emit(self.loops([("i", d0.text), ("j", d1.text)], upd))
            self.finish_scalar(acc, lo, hi)
            return
        keep, red = (d0, d1) if axis == "1" else (d1, d0)
        kv, rv = ("i", "j") if axis == "1" else ("j", "i")
        self.tag("reduce-axis" + axis)
        lo, hi = self.red_range(op, term, red.v)
        post = ch.chance(0.3)
        if post:
            self.leaves = [("@@", lo, hi)]
            pe = self.unary(("@@", lo, hi))
            lo, hi = pe[1], pe[2]
        dest = self.new_dest([keep], lo, hi)
        store = "%s[%s]" % (dest.name, kv)

        def wrap(a):
            return self.unary((a, 0, 0))[0] if False else a
        if into_elem:
            self.tag("reduce-into-element")
            init, upd = self.reduce_parts(op, store, term[0], style)
            if ch.chance(0.5):
                self.tag("reduce-loop-order")
                self.emit(self.loops([(kv, keep.text)],
                                     ["%s = %s;" % (store, init)]))
                self.emit(self.loops([(rv, red.text), (kv, keep.text)], upd))
            else:
                inner = ["%s = %s;" % (store, init)] + \
                    self.loops([(rv, red.text)], upd, 0)
                self.emit(self.loops([(kv, keep.text)], inner))
            if post:
                self.emit(self.loops([(kv, keep.text)], ["%s = %s;" % (
                    store, pe[0].replace("@@", store))]))
                self.tag("in-place")
            return
        acc = self.fresh("s")
        init, upd = self.reduce_parts(op, acc, term[0], style)
        fin = pe[0].replace("@@", acc) if post else acc
        at = "$T"
        if self.k.real == "float" and ch.chance(0.25):
            at = "double"
            self.tag("double-accumulator")
        inner = ["%s %s = %s;" % (at, acc, init)] + \
            self.loops([(rv, red.text)], upd, 0) + \
            ["%s = %s;" % (store, fin)]
        self.emit(self.loops([(kv, keep.text)], inner))

    def finish_scalar(self, acc, lo, hi):
        """A scalar computed at the top level: returned, stored, or read
        by later nests."""
        ch = self.ch
        c = ch.draw(3)
        if c == 0 and self.k.ret is None:
            self.k.ret = acc
            self.tag("return")
        elif c == 1:
            y = self.out_param(1)
            self.emit(["  %s[0] = %s;" % (y, acc)])
        else:
            self.tag("scalar-carry")
            b = self.fix_bounded((acc, lo, hi), 3.0)
            self.scalars.append(b)
            if self.k.ret is None and not self.has_out:
                self.k.ret = acc

    def st_nested(self):
        """Reductions nested in a loss: per-row logsumexp, or the sum of
        per-row maxima."""
        ch = self.ch
        self.tag("nested-reduce")
        d0, d1 = self.new_dim(), self.new_dim()
        x = self.get_array([d0, d1], (-3, 3))
        acc = self.fresh("s")
        m, z = self.fresh("m"), self.fresh("z")
        e = "%s[%s]" % (x.name, flat([d0, d1], ["i", "j"]))
        self.emit(["  $T %s = 0.0$;" % acc])
        if ch.chance(0.5):
            inner = ["$T %s = -1e30$;" % m] + \
                self.loops([("j", d1.text)],
                           ["%s = fmax$(%s, %s);" % (m, m, e)], 0) + \
                ["$T %s = 0.0$;" % z] + \
                self.loops([("j", d1.text)],
                           ["%s += exp$(%s - %s);" % (z, e, m)], 0) + \
                ["%s += log$(%s) + %s;" % (acc, z, m)]
            lo, hi = -3 * d0.v, (3 + math.log(d1.v) + 1) * d0.v
            self.tag("logsumexp")
        else:
            inner = ["$T %s = %s;" % (m, e.replace("j", "0"))] + \
                self.loops([("j", d1.text)],
                           ["if (%s > %s)" % (e, m), "  %s = %s;" % (m, e)],
                           0) + ["%s += %s * %s;" % (acc, m, m)]
            lo, hi = 0, 9 * d0.v
        self.emit(self.loops([("i", d0.text)], inner))
        self.finish_scalar(acc, lo, hi)

    def st_hidden(self):
        """A dense layer into a local array, as an MLP's hidden layer,
        read by the stages after it: keep-products' case (the forward
        keeps the product, the gradient takes it)."""
        self.tag("hidden")
        self.st_matmul(hidden=True)

    def st_matmul(self, hidden=False):
        ch = self.ch
        order = "ijp" if hidden else ch.pick(["ijp", "ipj", "pij", "jip",
                                              "jpi", "pji"])
        self.tag("matmul-" + order)
        n, kk, m = self.new_dim(), self.new_dim(), self.new_dim()
        A = self.get_array([n, kk], vla_ok=True)
        trans = ch.chance(0.25)
        if trans:
            B = self.get_array([m, kk])
            bacc = "%s[%s]" % (B.name, flat([m, kk], ["j", "p"]))
            self.tag("transposed")
        else:
            B = self.get_array([kk, m])
            bacc = "%s[%s]" % (B.name, flat([kk, m], ["p", "j"]))
        aacc = A.at(["i", "p"])
        term = ("%s * %s" % (aacc, bacc), *ival_mul((A.lo, A.hi),
                                                  (B.lo, B.hi)))
        if ch.chance(0.2):
            self.leaves = [(aacc, A.lo, A.hi)]
            u = self.unary((aacc, A.lo, A.hi))
            u = self.fix_bounded(u, 3)
            term = ("%s * %s" % (self.paren(u[0]), bacc),
                    *ival_mul(u[1:], (B.lo, B.hi)))
        bias = None
        if ch.chance(0.3):
            bias = self.get_array([m])
            self.tag("broadcast")
        lo = kk.v * term[1] + (bias.lo if bias else 0)
        hi = kk.v * term[2] + (bias.hi if bias else 0)
        act = ch.chance(0.3)
        fn = "tanh$"
        if act:
            lo, hi = -1, 1
            if hidden and ch.chance(0.5):
                # The activation as a helper of the file, which the
                # lifter substitutes (blas-forward takes its nest too).
                self.tag("helper-activation")
                self.nhelper += 1
                fn = "act%d" % self.nhelper
                self.k.helpers.append(
                    ["static inline $T", "%s($T a)" % fn,
                     "{", "  return 1.0$ / (1.0$ + exp$(-a));", "}", ""])
                lo, hi = 0, 1
        C = self.new_dest([n, m], min(lo, 0), max(hi, 0), tmp=hidden)
        cst = "%s[%s]" % (C.name, flat([n, m], ["i", "j"]))
        init = "%s[j]" % bias.name if bias else "0.0$"
        bounds = {"i": n.text, "j": m.text, "p": kk.text}
        if hidden or (order[2] == "p" and ch.chance(0.6)):
            acc = self.fresh("s")
            inner = ["$T %s = %s;" % (acc, init)] + \
                self.loops([("p", kk.text)],
                           ["%s += %s;" % (acc, term[0])], 0) + \
                ["%s = %s;" % (cst, "%s(%s)" % (fn, acc) if act else acc)]
            self.emit(self.loops([(order[0], bounds[order[0]]),
                                  (order[1], bounds[order[1]])], inner))
            return
        self.tag("accumulate-into-output")
        self.emit(self.loops([("i", n.text), ("j", m.text)],
                             ["%s = %s;" % (cst, init)]))
        self.emit(self.loops([(v, bounds[v]) for v in order],
                             ["%s += %s;" % (cst, term[0])]))
        if act:
            self.tag("in-place")
            self.emit(self.loops([("i", n.text), ("j", m.text)],
                                 ["%s = tanh$(%s);" % (cst, cst)]))

    def st_window(self):
        ch = self.ch
        kind = ch.pick(["valid", "pad", "2d", "pool"])
        self.tag("window")
        K = ch.pick([3, 2, 1])
        if kind in ("valid", "pool"):
            s = ch.pick([1, 2])
            o = self.new_dim()
            nin = self.new_dim((o.v - 1) * s + K, reuse=False)
            x = self.get_array([nin])
            kd = Dim(str(K), K)
            if s > 1:
                self.tag("stride")
            xe = "%s[%s]" % (x.name, ("i*%d + k" % s) if s > 1 else "i + k")
            if kind == "pool":
                self.tag("window-max")
                m = self.fresh("m")
                inner = ["$T %s = %s;" % (m, xe.replace("k", "0"))] + \
                    self.loops([("k", kd.text)], ["%s = fmax$(%s, %s);" %
                                                  (m, m, xe)], 0)
                y = self.new_dest([o], x.lo, x.hi)
                inner.append("%s[i] = %s;" % (y.name, m))
                self.emit(self.loops([("i", o.text)], inner))
                return
            w = self.get_array([kd])
            lo, hi = ival_mul((x.lo, x.hi), (w.lo, w.hi))
            y = self.new_dest([o], K * lo, K * hi)
            acc = self.fresh("s")
            inner = ["$T %s = 0.0$;" % acc] + self.loops(
                [("k", kd.text)], ["%s += %s[k] * %s;" % (acc, w.name, xe)],
                0) + ["%s[i] = %s;" % (y.name, acc)]
            self.emit(self.loops([("i", o.text)], inner))
            return
        if kind == "pad":
            self.tag("window-guard")
            n = self.new_dim()
            x = self.get_array([n])
            kd = Dim(str(K), K)
            w = self.get_array([kd])
            P = K // 2
            lo, hi = ival_mul((x.lo, x.hi), (w.lo, w.hi))
            y = self.new_dest([n], min(K * lo, 0), max(K * hi, 0))
            acc = self.fresh("s")
            inner = ["$T %s = 0.0$;" % acc] + self.loops(
                [("k", kd.text)],
                ["int q = i + k - %d;" % P,
                 "if (q >= 0 && q < %s)" % n.text,
                 "  %s += %s[k] * %s[q];" % (acc, w.name, x.name)], 0) + \
                ["%s[i] = %s;" % (y.name, acc)]
            self.emit(self.loops([("i", n.text)], inner))
            return
        self.tag("window-2d")
        oh, ow = self.new_dim(), self.new_dim()
        ih = self.new_dim(oh.v + K - 1, reuse=False)
        iw = self.new_dim(ow.v + K - 1, reuse=False)
        x = self.get_array([ih, iw])
        kd = Dim(str(K), K)
        w = self.get_array([kd, kd])
        lo, hi = ival_mul((x.lo, x.hi), (w.lo, w.hi))
        y = self.new_dest([oh, ow], K * K * lo, K * K * hi)
        acc = self.fresh("s")
        inner = ["$T %s = 0.0$;" % acc] + self.loops(
            [("p", kd.text), ("q", kd.text)],
            ["%s += %s[p*%d + q] * %s[(i + p)*%s + j + q];"
             % (acc, w.name, K, x.name, iw.text)], 0) + \
            ["%s[%s] = %s;" % (y.name, flat([oh, ow], ["i", "j"]), acc)]
        self.emit(self.loops([("i", oh.text), ("j", ow.text)], inner))

    def st_conv(self):
        """A convolution over channels (focused: --stages conv): filters
        of C channels, maybe over a batch, zero padding tested in the
        loop or none (valid); its gradient runs as products over the
        patches (lib/passes/patches.c)."""
        ch = self.ch
        self.tag("conv")
        K = ch.pick([3, 2, 1, 5])
        pad = ch.chance(0.6)
        P = K // 2 if pad else 0
        # Few samples, channels and filters: the check differentiates
        # every input element through the whole convolution.
        nb = self.new_dim(ch.pick([1, 2])) if ch.chance(0.5) else None
        c, f = self.new_dim(ch.pick([1, 2, 3])), self.new_dim(ch.pick([1, 2, 3]))
        oh, ow = self.new_dim(), self.new_dim()
        ih = oh if pad else self.new_dim(oh.v + K - 1, reuse=False)
        iw = ow if pad else self.new_dim(ow.v + K - 1, reuse=False)
        bd = [nb] if nb else []
        x = self.get_array(bd + [c, ih, iw])
        kd = Dim(str(K), K)
        w = self.get_array([f, c, kd, kd])
        lo, hi = ival_mul((x.lo, x.hi), (w.lo, w.hi))
        n = K * K * c.v
        y = self.new_dest(bd + [f, oh, ow], min(n * lo, 0), max(n * hi, 0))
        acc = self.fresh("s")
        xb = "(b*%s + c)" % c.text if nb else "c"
        yb = "(b*%s + o)" % f.text if nb else "o"
        term = "%s[((o*%s + c)*%d + p)*%d + q] * %s[(%s*%s + u)*%s + v]" % (
            w.name, c.text, K, K, x.name, xb, ih.text, iw.text)
        body = ["int u = i + p - %d, v = j + q - %d;" % (P, P)]
        if pad:
            self.tag("conv-pad")
            body += ["if (u >= 0 && u < %s && v >= 0 && v < %s)"
                     % (ih.text, iw.text), "  %s += %s;" % (acc, term)]
        else:
            body += ["%s += %s;" % (acc, term)]
        inner = ["$T %s = 0.0$;" % acc] + self.loops(
            [("c", c.text), ("p", kd.text), ("q", kd.text)], body, 0) + \
            ["%s[(%s*%s + i)*%s + j] = %s;" % (y.name, yb, oh.text, ow.text,
                                             acc)]
        outer = ([("b", nb.text)] if nb else []) + \
            [("o", f.text), ("i", oh.text), ("j", ow.text)]
        self.emit(self.loops(outer, inner))

    def idx_param(self, n, V):
        name = self.fresh("ix")
        self.k.params.append({"kind": "idx", "name": name, "n": n, "V": V})
        return name

    def st_gather(self):
        ch = self.ch
        self.tag("gather")
        V, d, n = self.new_dim(), self.new_dim(), self.new_dim()
        table = self.get_array([V, d])
        ix = self.idx_param(n.v, V.v)
        g = "%s[%s[i]*%s + k]" % (table.name, ix, d.text)
        if ch.chance(0.3):
            self.tag("index-temp")
            pre = ["int r = %s[i];" % ix]
            g = "%s[r*%s + k]" % (table.name, d.text)
        else:
            pre = []
        if ch.chance(0.35):
            # embedding bag: a sum over the gathered rows
            self.tag("gather-reduce")
            w = self.get_array([n])
            y = self.new_dest([d], min(n.v * table.lo * 2, 0) - 2,
                              max(n.v * table.hi * 2, 0) + 2)
            self.emit(self.loops([("k", d.text)], ["%s[k] = 0.0$;" % y.name]))
            self.emit(self.loops([("i", n.text), ("k", d.text)],
                                 pre + ["%s[k] += %s[i] * %s;"
                                        % (y.name, w.name, g)]))
            return
        leaves = [(g, table.lo, table.hi)]
        if ch.chance(0.4):
            o = self.get_array([n, d])
            leaves.append((o.name + "[i*%s + k]" % d.text, o.lo, o.hi))
        e = self.body_expr(leaves, ch.draw(3))
        y = self.new_dest([n, d], e[1], e[2])
        self.emit(self.loops([("i", n.text), ("k", d.text)],
                             pre + ["%s[i*%s + k] = %s;" % (y.name, d.text,
                                                            e[0])]))

    def st_triangular(self):
        ch = self.ch
        self.tag("triangular")
        n = self.new_dim()
        x = self.get_array([n, n])
        rel = ch.pick(["j <= i", "j < i", "j >= i"])
        ename = self.fresh("y")
        N = n.v * n.v
        self.k.params.append({"kind": "out", "name": ename, "n": N})
        self.has_out = True
        start = "i" if rel == "j >= i" else "0"
        cond = ("j < %s" % n.text) if rel == "j >= i" else rel
        if ch.chance(0.3):
            # a reduction over the triangle: README says not yet
            self.tag("triangular-reduce")
            v = self.get_array([n])
            acc = self.fresh("s")
            inner = ["$T %s = 0.0$;" % acc,
                     "for (int j = %s; %s; j++)" % (start, cond),
                     "  %s += %s[i*%s + j] * %s[j];" % (acc, x.name, n.text,
                                                        v.name),
                     "%s[i] = %s;" % (ename, acc)]
            self.emit(self.loops([("i", n.text)], inner))
            return
        leaves = [(x.name + "[i*%s + j]" % n.text, x.lo, x.hi)]
        e = self.body_expr(leaves)
        inner = ["for (int j = %s; %s; j++)" % (start, cond),
                 "  %s[i*%s + j] = %s;" % (ename, n.text, e[0])]
        self.emit(self.loops([("i", n.text)], inner))

    def st_recurrence(self):
        ch = self.ch
        self.tag("recurrence")
        kind = ch.pick(["array", "scalar", "seeded", "rows", "rnn"])
        n = self.new_dim(minv=2)
        if kind in ("array", "seeded", "scalar"):
            x = self.get_array([n])
            c = ch.draw(3)
            if c == 0:
                a, alo, ahi = "0.9$", 0.9, 0.9
            elif c == 1:
                a, alo, ahi = self.scalar_param(0.3, 0.95)
            else:
                w = self.get_array([n], (0.25, 2.0))
                a, alo, ahi = "0.5$*" + w.name + "[i]", 0.125, 1.0
            t = self.fix_bounded((x.name + "[i]", x.lo, x.hi), 2)
            if ch.chance(0.4):
                self.leaves = [t]
                t = self.fix_bounded(self.unary(t), 2)
            m = max(abs(t[1]), abs(t[2]))
            bound = m * n.v
            y = self.new_dest([n], -bound, bound, allow_tmp=ch.chance(0.3))
            ys = y.name
            if kind == "array":
                t0 = t[0].replace("[i]", "[0]")
                self.emit(["  %s[0] = %s;" % (ys, t0)])
                self.emit(["  for (int i = 1; i < %s; i++)" % n.text,
                           "    %s[i] = %s[i-1] * %s + %s;" % (ys, ys, a,
                                                               t[0])])
            elif kind == "seeded":
                self.tag("recurrence-seeded")
                t0 = t[0].replace("[i]", "[0]")
                self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                           "    %s[i] = i == 0 ? %s : %s[i-1] * %s + %s;"
                           % (ys, t0, ys, a, t[0])])
            else:
                self.tag("recurrence-scalar")
                p = self.fresh("p")
                self.emit(["  $T %s = 0.0$;" % p,
                           "  for (int i = 0; i < %s; i++)" % n.text,
                           "    {",
                           "      %s = %s * %s + %s;" % (p, p, a, t[0]),
                           "      %s[i] = %s;" % (ys, p),
                           "    }"])
            return
        H = self.new_dim()
        if kind == "rows":
            self.tag("recurrence-rows")
            x = self.get_array([n, H])
            w = self.get_array([H])
            y = self.new_dest([n, H], -1, 1, allow_tmp=False)
            self.emit(self.loops([("i", H.text)], ["%s[i] = tanh$(%s[i]);" %
                                                   (y.name, x.name)]))
            self.emit(["  for (int t = 1; t < %s; t++)" % n.text] +
                      self.loops([("i", H.text)],
                                 ["%s[t*%s + i] = tanh$(%s[(t-1)*%s + i] * "
                                  "%s[i] + %s[t*%s + i]);" %
                                  (y.name, H.text, y.name, H.text, w.name,
                                   x.name, H.text)], 2))
            return
        self.tag("rnn")
        x = self.get_array([n, H])
        W = self.get_array([H, H], (-1, 1))
        h0 = self.get_array([H])
        nh = self.fresh("h")
        Np1 = (n.v + 1) * H.v
        self.k.params.append({"kind": "out", "name": nh, "n": Np1})
        self.has_out = True
        self.emit(self.loops([("i", H.text)], ["%s[i] = %s[i];" %
                                               (nh, h0.name)]))
        acc = self.fresh("s")
        inner = ["$T %s = %s[t*%s + i];" % (acc, x.name, H.text)] + \
            self.loops([("j", H.text)], ["%s += 0.5$ * %s[i*%s + j] * "
                                         "%s[t*%s + j];" %
                                         (acc, W.name, H.text, nh, H.text)],
                       0) + \
            ["%s[(t+1)*%s + i] = tanh$(%s);" % (nh, H.text, acc)]
        self.emit(self.loops([("t", n.text), ("i", H.text)], inner))

    def st_tape(self):
        """Scalars a loop carries that are no reduction, used after it: the
        gradient keeps a tape (Horner counting down, coupled state, a
        state per row, a sum in one arm and a product in the other)."""
        ch = self.ch
        self.tag("tape")
        kind = ch.pick(["horner", "coupled", "rows", "mixed"])
        n = self.new_dim(minv=2)
        if kind == "horner":
            c = self.get_array([n])
            a = self.scalar_param(0.3, 0.9)[0]
            p = self.fresh("p")
            self.emit(["  $T %s = %s[%s - 1];" % (p, c.name, n.text),
                       "  for (int i = %s - 2; i >= 0; i--)" % n.text,
                       "    %s = %s * %s + %s[i];" % (p, p, a, c.name)])
            b = max(abs(c.lo), abs(c.hi)) * n.v + 1
            self.finish_scalar(p, -b, b)
        elif kind == "coupled":
            x = self.get_array([n], (-1, 1))
            u, v = self.fresh("u"), self.fresh("v")
            self.emit(["  $T %s = 1.0$, %s = 0.0$;" % (u, v),
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    {",
                       "      %s += 0.1$ * (%s - 0.5$ * %s) + 0.05$ * %s[i];"
                       % (u, v, u, x.name),
                       "      %s -= 0.1$ * %s;" % (v, u),
                       "    }"])
            y = self.out_param(1)
            self.emit(["  %s[0] = %s;" % (y, v)])
            self.finish_scalar(u, -3, 3)
        elif kind == "rows":
            m = self.new_dim()
            x2 = self.get_array([n, m], (-1, 1))
            y = self.new_dest([n], -2, 2)
            h = self.fresh("h")
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {",
                       "      $T %s = 0.5$;" % h,
                       "      for (int j = 0; j < %s; j++)" % m.text,
                       "        %s = 0.5$ * tanh$(%s) + %s[i*%s + j];"
                       % (h, h, x2.name, m.text),
                       "      %s[i] = %s;" % (y.name, h),
                       "    }"])
        else:
            x = self.get_array([n], (0.5, 1.5))
            s = self.fresh("s")
            self.emit(["  $T %s = 1.0$;" % s,
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    {",
                       "      if (2 * i < %s)" % n.text,
                       "        %s += %s[i];" % (s, x.name),
                       "      else",
                       "        %s *= %s[i];" % (s, x.name),
                       "    }"])
            b = (1 + 1.5 * n.v) * 1.5 ** n.v
            self.finish_scalar(s, -b, b)

    def st_clamp(self):
        """Clamped indices (edge padding): a row above and below, clamped
        at the edges, in the index or in a local, maybe hinted."""
        ch = self.ch
        self.tag("clamp")
        n, m = self.new_dim(minv=2), self.new_dim()
        x = self.get_array([n, m])
        mx = max(abs(x.lo), abs(x.hi))
        local = ch.chance(0.5)
        bound = mx * mx + mx if local else 3 * mx
        y = self.new_dest([n, m], -bound, bound)
        up = "(i + 1 < %s ? i + 1 : %s - 1)" % (n.text, n.text)
        if ch.chance(0.3):
            self.tag("expect")
            down = "(__builtin_expect (i > 0, 1) ? i - 1 : 0)"
        else:
            down = "(i > 0 ? i - 1 : 0)"
        if not local:
            body = ["%s[i*%s + j] = 2.0$ * %s[%s*%s + j] - %s[%s*%s + j];"
                    % (y.name, m.text, x.name, up, m.text, x.name, down,
                       m.text)]
        else:
            self.tag("clamp-local")
            lo, hi = self.fresh("lo"), self.fresh("hi")
            body = ["int %s = %s, %s = %s;" % (lo, down, hi, up),
                    "%s[i*%s + j] = %s[%s*%s + j] * %s[%s*%s + j] + %s[i*%s + j];"
                    % (y.name, m.text, x.name, lo, m.text, x.name, hi,
                       m.text, x.name, m.text)]
        self.emit(self.loops([("i", n.text), ("j", m.text)], body))

    def st_rolling(self, mod=None):
        """A rolling buffer h[mod][H] indexed modulo 2 or 3."""
        ch = self.ch
        if mod is None:
            mod = 3 if ch.chance(0.3) else 2
        self.tag("rolling" if mod == 2 else "rolling-mod3")
        T = self.new_dim()
        H = self.new_dim()
        x = self.get_array([T, H])
        w = self.get_array([H], (-1, 1))
        h0 = self.get_array([H])
        h = self.fresh("h")
        self.k.decls.append("  $T %s[%d][%s];" % (h, mod, H.text))
        if not H.text.isdigit():
            self.tag("vla")
        self.emit(self.loops([("i", H.text)], ["%s[0][i] = %s[i];" %
                                               (h, h0.name)]))
        upd = "%s[(t + 1) %% %d][i] = tanh$(%s[i] * %s[t %% %d][i] + " \
              "%s[t*%s + i]);" % (h, mod, w.name, h, mod, x.name, H.text)
        if ch.chance(0.4):
            self.tag("rolling-loss")
            acc = self.fresh("s")
            self.emit(["  $T %s = 0.0$;" % acc])
            self.emit(self.loops([("t", T.text), ("i", H.text)],
                                 [upd, "%s += %s[(t + 1) %% %d][i] * (i + 1);"
                                  % (acc, h, mod)]))
            self.finish_scalar(acc, -T.v * H.v * H.v, T.v * H.v * H.v)
            return
        self.emit(self.loops([("t", T.text), ("i", H.text)], [upd]))
        y = self.new_dest([H], -1, 1, allow_tmp=False)
        self.emit(self.loops([("i", H.text)], ["%s[i] = %s[%s %% %d][i];" %
                                               (y.name, h, T.text, mod)]))

    def st_access(self):
        """Other affine accesses and loop forms: shifts, a reversed index,
        strided reads, a transposed read, a stencil, a loop of step 2,
        other counter types, loops that skip the ends."""
        ch = self.ch
        kind = ch.pick(["shift", "reverse-index", "stride-read",
                        "transpose-read", "stencil", "step2", "counter-type",
                        "skip-ends"])
        self.tag("access-" + kind)
        n = self.new_dim(minv=2 if kind == "skip-ends" else 1)
        ctr = "int"
        loop = "for (%s i = 0; i < %s; i++)"
        readable = True
        if kind == "shift":
            c = ch.pick([1, 2])
            m = self.new_dim(n.v + c, reuse=False)
            x = self.get_array([m])
            leaves = [("%s[i + %d]" % (x.name, c), x.lo, x.hi),
                      ("%s[i]" % x.name, x.lo, x.hi)]
        elif kind == "reverse-index":
            x = self.get_array([n])
            leaves = [("%s[%s - 1 - i]" % (x.name, n.text), x.lo, x.hi)]
            if ch.chance(0.5):
                leaves.append(("%s[i]" % x.name, x.lo, x.hi))
        elif kind == "stride-read":
            m = self.new_dim(2 * n.v + 1, reuse=False)
            x = self.get_array([m])
            leaves = [("%s[2*i + 1]" % x.name, x.lo, x.hi),
                      ("%s[2*i]" % x.name, x.lo, x.hi)]
        elif kind == "transpose-read":
            d1 = self.new_dim()
            x = self.get_array([d1, n])
            e = self.body_expr([("%s[j*%s + i]" % (x.name, n.text), x.lo,
                                 x.hi)])
            y = self.new_dest([n, d1], e[1], e[2])
            self.emit(self.loops([("i", n.text), ("j", d1.text)],
                                 ["%s[i*%s + j] = %s;" % (y.name, d1.text,
                                                          e[0])]))
            return
        elif kind == "stencil":
            m = self.new_dim(n.v + 2, reuse=False)
            x = self.get_array([m])
            leaves = [("(%s[i] - 2.0$*%s[i + 1] + %s[i + 2])" %
                       ((x.name,) * 3), 4 * x.lo - 4 * x.hi,
                       4 * x.hi - 4 * x.lo),
                      ("%s[i + 1]" % x.name, x.lo, x.hi)]
        else:
            x = self.get_array([n])
            leaves = [("%s[i]" % x.name, x.lo, x.hi)]
            if kind == "step2":
                loop = "for (%s i = 0; i < %s; i += 2)"
                readable = False
            elif kind == "skip-ends":
                loop = "for (%s i = 1; i < %s - 1; i++)"
                readable = False
                leaves += [("%s[i - 1]" % x.name, x.lo, x.hi),
                           ("%s[i + 1]" % x.name, x.lo, x.hi)]
            else:
                ctr = ch.pick(["long", "unsigned", "size_t", "short",
                               "unsigned long"])
                loop = "for (%s i = 0; i < %s; i++)"
        e = self.body_expr(leaves)
        if readable:
            y = self.new_dest([n], e[1], e[2])
            yn = y.name
        else:
            yn = self.out_param(n.v)
        self.emit(["  " + loop % (ctr, n.text), "    %s[i] = %s;" % (yn, e[0])])

    def st_version(self):
        ch = self.ch
        self.tag("version")
        n = self.new_dim()
        leaves = self.leaves_for([n], ["i"])
        e = self.fix_bounded(self.body_expr(leaves, ch.draw(2)), 3)
        name = self.fresh("t")
        self.k.decls.append("  $T %s[%s];" % (name, n.text))
        self.emit(self.loops([("i", n.text)], ["%s[i] = %s;" %
                                               (name, e[0])]))
        if ch.chance(0.5):
            z = self.fresh("z")
            self.emit(["  $T %s = 0.0$;" % z])
            self.emit(self.loops([("i", n.text)], ["%s[i] = exp$(%s[i]);" %
                                                   (name, name)]))
            self.emit(self.loops([("i", n.text)], ["%s += %s[i];" %
                                                   (z, name)]))
            self.emit(self.loops([("i", n.text)], ["%s[i] /= %s;" %
                                                   (name, z)]))
            lo, hi = 0, 1
        else:
            self.emit(self.loops([("i", n.text)], ["%s[i] = %s[i] * %s[i];" %
                                                   (name, name, name)]))
            lo, hi = 0, max(e[1] ** 2, e[2] ** 2)
        self.pool.append(Arr(name, [n], lo, hi, "tmp"))
        if ch.chance(0.5):
            y = self.new_dest([n], lo, hi, allow_tmp=False)
            self.emit(self.loops([("i", n.text)], ["%s[i] = %s[i] * %s[i];" %
                                                   (y.name, name, name)]))

    def st_inout(self):
        ch = self.ch
        self.tag("inout")
        n = self.new_dim()
        name = self.fresh("u")
        lo, hi = -1.0, 1.0
        self.k.params.append({"kind": "inout", "name": name, "n": n.v,
                              "lo": lo, "hi": hi})
        self.has_out = True
        leaves = self.leaves_for([n], ["i"])
        e = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 2)
        c = ch.draw(3)
        if c == 0:
            st = "%s[i] += %s;" % (name, e[0])
        elif c == 1:
            a = ch.pick([("0.5$", 0.5, 0.5), self.scalar_param(-1, 1)])
            st = "%s[i] = %s[i] * %s + %s;" % (name, name, a[0], e[0])
        else:
            st = "%s[i] = tanh$(%s[i] + %s);" % (name, name, e[0])
        self.emit(self.loops([("i", n.text)], [st]))

    def helper(self, with_scalar):
        """A differentiable kernel of the file, called by the main one."""
        self.nhelper += 1
        hn = "h%d" % self.nhelper
        saved = self.leaves if hasattr(self, "leaves") else None
        leaves = [("x[i]", -2.0, 2.0)]
        if with_scalar:
            leaves.append(("a", -1.0, 1.0))
        e = self.body_expr(leaves, 1 + self.ch.draw(2))
        self.leaves = saved
        sp = ", $T a" if with_scalar else ""
        self.k.helpers.append(
            ["__attribute__((differentiable))",
             "static void", "$K%s(int n%s, const $T *x, $T *y)" % (hn, sp),
             "{", "  for (int i = 0; i < n; i++)",
             "    y[i] = %s;" % e[0], "}", ""])
        return hn, e[1], e[2]

    def st_call(self):
        ch = self.ch
        self.tag("call")
        with_scalar = ch.chance(0.3)
        n = self.new_dim()
        x = self.get_array([n], (-2.0, 2.0))
        hn, lo, hi = self.helper(with_scalar)
        sa = ""
        if with_scalar:
            sa = ", " + self.scalar_param(-1, 1)[0]
        if ch.chance(0.4):
            self.tag("call-loop")
            B = self.new_dim()
            xb = self.get_array([B, n], (-2.0, 2.0))
            y = self.new_dest([B, n], lo, hi, allow_tmp=ch.chance(0.3))
            self.emit(["  for (int b = 0; b < %s; b++)" % B.text,
                       "    $K%s(%s%s, %s + b*%s, %s + b*%s);" %
                       (hn, n.text, sa, xb.name, n.text, y.name, n.text)])
            return
        y = self.new_dest([n], lo, hi, allow_tmp=ch.chance(0.4))
        self.emit(["  $K%s(%s%s, %s, %s);" % (hn, n.text, sa, x.name,
                                             y.name)])

    # -- the kernel ------------------------------------------------------
    STAGE_WEIGHTS = [("elementwise", 6), ("reduce", 5), ("matmul", 3),
                     ("window", 3), ("gather", 2), ("triangular", 1),
                     ("recurrence", 3), ("rolling", 2), ("version", 2),
                     ("inout", 1), ("call", 2), ("nested", 2),
                     ("access", 4), ("tape", 2), ("clamp", 2),
                     ("rows", 4), ("optional", 2), ("count", 2),
                     ("tiles", 3), ("carry", 3), ("branches", 2),
                     ("down", 2), ("arms", 2), ("omp", 2),
                     ("pairs", 2)]
    # Kinds drawn only when --stages names them (narrow variations of a
    # kind of STAGE_WEIGHTS, to measure one construct).
    FOCUSED = ["causal-tail", "conv", "hidden"]
    REFUSED = ["break", "while-data", "scratch-partial-overwrite",
               "switch", "carried-scalar-inner", "partial-overwrite",
               "scatter-store", "goto", "compaction", "unrolled-stores",
               "carry-batch"]

    def new_plan(self):
        """The kernel's outline from the RNG: its type and its stages (the
        draws of each stage are recorded while it is generated)."""
        rng = self.rng
        plan = {"real": 0 if rng.randrange(3) != 2 else 1, "stages": [],
                "sink": None}
        weights = self.STAGE_WEIGHTS
        if self.only:
            weights = [(k, 1) for k in self.only]
        total = sum(w for _, w in weights)
        for _ in range(1 + rng.randrange(3)):
            v = rng.randrange(total)
            for kind, w in weights:
                if v < w:
                    break
                v -= w
            plan["stages"].append([kind, None])
        if not self.only and rng.random() < 0.22:
            plan["stages"].insert(rng.randrange(len(plan["stages"]) + 1),
                                  ["R:" + rng.choice(self.REFUSED), None])
        return plan

    def sub(self, seq):
        return Choices(self.rng) if seq is None else Choices(seq=seq)

    def generate(self):
        if self.plan is None:
            self.plan = self.new_plan()
        plan = self.plan
        self.k.real = ["double", "float"][plan["real"]]
        self.tag(self.k.real)
        used_inout = False
        for st in plan["stages"]:
            kind, seq = st
            self.ch = self.sub(seq)
            if kind.startswith("R:"):
                self.st_refused(kind[2:])
            else:
                if kind == "inout":
                    if used_inout:
                        kind = st[0] = "elementwise"
                    used_inout = True
                getattr(self, "st_" + kind.replace("-", "_"))()
            st[1] = self.ch.rec
        self.ch = self.sub(plan["sink"])
        self.sink()
        plan["sink"] = self.ch.rec
        self.k.plan = plan
        return self.finish()

    def sink(self):
        """Make the last array written observable: a kernel whose last
        value is in a local array returns or stores it."""
        last = self.pool[-1] if self.pool else None
        if last is not None and last.kind == "tmp":
            dims = last.dims
            idx = ["i", "j", "k"][:len(dims)]
            if self.k.ret is None and self.ch.chance(0.5):
                acc = self.fresh("s")
                self.emit(["  $T %s = 0.0$;" % acc])
                self.emit(self.loops(list(zip(idx, [d.text for d in dims])),
                                     ["%s += %s[%s] * %s;" % (
                                         acc, last.name, flat(dims, idx),
                                         lit(0.5))]))
                self.k.ret = acc
                self.tag("return")
            else:
                y = self.new_dest(dims, last.lo, last.hi, allow_tmp=False)
                self.emit(self.loops(list(zip(idx, [d.text for d in dims])),
                                     ["%s[%s] = %s[%s];" % (
                                         y.name, flat(dims, idx), last.name,
                                         flat(dims, idx))]))
        if not self.has_out and self.k.ret is None:
            a = self.get_array([self.new_dim()])
            y = self.out_param(len(a.name) and a.numel())
            self.emit(["  for (int i = 0; i < %s; i++)" % a.dims[0].text,
                       "    %s[i] = %s[i];" % (y, a.name)])

    def finish(self):
        k = self.k
        if k.ret is not None:
            k.tags.add("return")
        return k


def signature(k, flat_arrays=False):
    parts = []
    for p in k.params:
        if p["kind"] == "int":
            parts.append("int " + p["name"])
        elif p["kind"] == "scal":
            parts.append("$T " + p["name"])
        elif p["kind"] == "in" and p.get("vla") and not flat_arrays:
            parts.append("const $T %s%s" % (p["name"], p["vla"]))
        elif p["kind"] == "in":
            parts.append("const $T *" + p["name"])
        elif p["kind"] == "idx":
            parts.append("const int *" + p["name"])
        else:
            parts.append("$T *" + p["name"])
    rt = "$T" if k.ret is not None else "void"
    return rt, "$K%s(%s)" % (k.name, ", ".join(parts))


def kernel_text(k):
    """The kernel's text with markers (helpers first)."""
    out = []
    for h in k.helpers:
        out.extend(h)
    rt, sig = signature(k)
    out += ["__attribute__((differentiable))", rt, sig, "{"]
    out += k.decls
    out += k.body
    if k.ret is not None:
        out.append("  return %s;" % k.ret)
    out.append("}")
    return "\n".join(out) + "\n"


def render(text, real, ref=False):
    """TEXT with its markers replaced, for a kernel of type REAL or (REF)
    its double reference: renamed, without the attribute."""
    if ref:
        text = text.replace("__attribute__((differentiable))\n", "")
        text = re.sub(r"\$K(\w+)", r"ref_\1", text)
        real = "double"
    else:
        text = re.sub(r"\$K(\w+)", r"\1", text)
    suf = "f" if real == "float" else ""
    text = text.replace("$T", real)
    text = re.sub(r"(\b[a-z][a-z0-9]*)\$\(", lambda m: m.group(1) + suf + "(",
                  text)
    text = re.sub(r"([0-9][0-9.e+-]*)\$", lambda m: m.group(1) + suf, text)
    return text


def generate(rng=None, plan=None, only=None, known=False):
    """A kernel from RNG, or replayed from PLAN (a plan a kernel recorded,
    possibly shrunk): the kernel's plan is in its field plan.  ONLY, a
    list of stage kinds (R:kind for a refused construct), restricts the
    stages drawn; KNOWN also generates the variations of
    Gen.KNOWN_WRONG."""
    return Gen(rng, plan, only, known).generate()


def stage_kinds():
    return [k for k, _ in Gen.STAGE_WEIGHTS] + Gen.FOCUSED + [
        "R:" + k for k in Gen.REFUSED]


def copy_plan(plan):
    return {"real": plan["real"], "sink": list(plan["sink"] or []),
            "stages": [[k, list(s or [])] for k, s in plan["stages"]]}
