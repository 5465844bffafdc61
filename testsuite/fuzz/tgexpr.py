"""tgexpr -- the pieces of tggen's kernels: the choice stream, arrays,
and expressions with bounds.

Every expression carries bounds [lo, hi] of its values, so a function is
applied only inside its domain (log of a positive value, exp of a bounded
one) and magnitudes stay small: the transformations fix_bounded,
fix_positive and fix_open move an argument into a domain.
"""

import math
import re

class Choices:
    """The random choices of one kernel: drawn from RNG and recorded, or
    replayed from SEQ (a value v answers draw(n) as v % n; past its end
    every draw is 0)."""

    def __init__(self, rng=None, seq=None):
        self.rng = rng
        self.seq = seq
        self.rec = []

    def draw(self, n):
        if n <= 1:
            return 0
        if self.seq is None:
            v = self.rng.randrange(n)
        else:
            i = len(self.rec)
            v = self.seq[i] % n if i < len(self.seq) else 0
        self.rec.append(v)
        return v

    def chance(self, p):
        """True with probability P; a draw of 0 says False."""
        return self.draw(1000) >= 1000 - int(p * 1000)

    def pick(self, items):
        return items[self.draw(len(items))]

    def weighted(self, pairs):
        """PAIRS of (item, weight); the first item is the draw of 0."""
        total = sum(w for _, w in pairs)
        v = self.draw(total)
        for item, w in pairs:
            if v < w:
                return item
            v -= w
        return pairs[-1][0]


def lit(v):
    s = repr(float(v))
    if "e" in s or "inf" in s:
        s = "%.6f" % v
    s = s + "$"
    return "(" + s + ")" if v < 0 else s


class Dim:
    def __init__(self, text, v):
        self.text = text
        self.v = v


class Arr:
    """An array the kernel can read: NAME, extents DIMS (Dim list), values
    in [LO, HI], KIND in, out, tmp, inout."""

    def __init__(self, name, dims, lo, hi, kind, vla=False):
        self.name, self.dims, self.lo, self.hi, self.kind = \
            name, dims, lo, hi, kind
        self.vla = vla

    def at(self, idx):
        """The element at IDX (index texts): x[i][j] for a VLA parameter,
        else row-major flat."""
        if self.vla:
            return self.name + "".join("[%s]" % i for i in idx)
        return self.name + "[" + flat(self.dims, idx) + "]"

    def numel(self):
        n = 1
        for d in self.dims:
            n *= d.v
        return n


def flat(dims, idx):
    """The row-major flat index of IDX (index texts) in DIMS."""
    s = idx[0]
    for d, i in zip(dims[1:], idx[1:]):
        s = "(%s)*%s + %s" % (s, d.text, i) if "+" in s or "-" in s \
            else "%s*%s + %s" % (s, d.text, i)
    return s


def ival_mul(a, b):
    ps = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return min(ps), max(ps)



class Exprs:
    """Expressions over leaves (text, lo, hi); a mixin of tggen.Gen, which
    provides ch (Choices), k (the kernel), tag and leaves."""

    # -- expressions -----------------------------------------------------
    def fix_bounded(self, e, b=3.0):
        t, lo, hi = e
        if lo >= -b and hi <= b:
            return e
        m = max(abs(lo), abs(hi))
        if self.ch.chance(0.5):
            s = b / m
            return ("%s*(%s)" % (lit(round(s, 4) or 0.001), t),
                    lo * round(s, 4), hi * round(s, 4))
        return ("tanh$(%s)" % t, math.tanh(lo), math.tanh(hi))

    def fix_positive(self, e, eps=0.25):
        t, lo, hi = e
        if lo >= eps:
            return e
        c = self.ch.draw(3)
        if c == 0:
            m = max(lo * lo, hi * hi)
            return ("(%s*%s + 0.5$)" % (t, t), 0.5, m + 0.5)
        if c == 1:
            return ("(1.5$ + tanh$(%s))" % t, 1.5 + math.tanh(lo),
                    1.5 + math.tanh(hi))
        b = self.fix_bounded(e, 2.0)
        return ("exp$(%s)" % b[0], math.exp(b[1]), math.exp(b[2]))

    def fix_open(self, e, b):
        """Into (-B, B)."""
        t, lo, hi = e
        if lo > -b and hi < b:
            return e
        return ("%s*tanh$(%s)" % (lit(b * 0.9), t),
                b * 0.9 * math.tanh(lo), b * 0.9 * math.tanh(hi))

    def fname(self, f):
        """F's spelling: usually the kernel's precision; in a float kernel
        sometimes the double function (a conversion)."""
        if self.k.real == "float" and self.ch.chance(0.1):
            self.tag("mixed-precision")
            return f + "("
        return f + "$("

    def scalar_helper(self, e):
        """A differentiable helper of the file returning an expression of
        its scalar parameter, called on E."""
        self.tag("scalar-helper")
        self.nhelper += 1
        hn = "sg%d" % self.nhelper
        t, lo, hi = self.fix_bounded(e, 4.0)
        body, r = self.ch.pick([("1.0$ / (1.0$ + exp$(-a))", (0.0, 1.0)),
                                ("a * tanh$(a)", (0.0, 4.0)),
                                ("a / (1.0$ + fabs$(a))", (-1.0, 1.0))])
        self.k.helpers.append(["__attribute__((differentiable))",
                               "static $T", "$K%s($T a)" % hn, "{",
                               "  return %s;" % body, "}", ""])
        return ("$K%s(%s)" % (hn, t),) + r

    def unary(self, e):
        ch = self.ch
        if ch.chance(0.04):
            return self.scalar_helper(e)
        f = ch.pick(["tanh", "exp", "sin", "log", "sqrt", "cos", "fabs",
                     "erf", "expm1", "log1p", "pow", "atan", "sinh",
                     "cosh", "erfc", "cbrt", "exp2", "log2", "log10",
                     "asin", "acos", "tan", "hypot", "atan2", "floor"])
        self.tag("f-" + f)
        fn = self.fname(f)
        if f in ("tanh", "sin", "cos", "erf", "atan", "erfc"):
            t, lo, hi = self.fix_bounded(e, 6.0)
            vals = {"tanh": math.tanh, "erf": math.erf, "atan": math.atan,
                    "erfc": math.erfc}
            if f in vals:
                a, b = vals[f](lo), vals[f](hi)
                return (fn + t + ")", min(a, b), max(a, b))
            return (fn + t + ")", -1.0, 1.0)
        if f in ("exp", "expm1", "sinh", "cosh", "exp2"):
            t, lo, hi = self.fix_bounded(e, 2.5)
            g = {"exp": math.exp, "expm1": math.expm1, "sinh": math.sinh,
                 "cosh": math.cosh, "exp2": lambda v: 2.0 ** v}[f]
            vs = [g(lo), g(hi)]
            if f == "cosh":
                vs.append(1.0 if lo < 0 < hi else min(vs))
            return (fn + t + ")", min(vs), max(vs))
        if f in ("log", "sqrt", "cbrt", "log2", "log10"):
            t, lo, hi = self.fix_positive(e)
            g = {"log": math.log, "sqrt": math.sqrt, "cbrt": lambda v:
                 v ** (1 / 3.0), "log2": math.log2, "log10": math.log10}[f]
            return (fn + t + ")", g(lo), g(hi))
        if f == "log1p":
            t, lo, hi = e
            if lo <= -0.7:
                t, lo, hi = self.fix_open(e, 0.7)
            return (fn + t + ")", math.log1p(lo), math.log1p(hi))
        if f in ("asin", "acos", "tan"):
            t, lo, hi = self.fix_open(e, 0.9 if f != "tan" else 1.2)
            g = {"asin": math.asin, "acos": math.acos, "tan": math.tan}[f]
            a, b = g(lo), g(hi)
            return (fn + t + ")", min(a, b), max(a, b))
        if f == "fabs":
            t, lo, hi = self.fix_bounded(e, 6.0)
            if lo < 0 < hi:
                return (fn + t + ")", 0.0, max(-lo, hi))
            return (fn + t + ")", min(abs(lo), abs(hi)),
                    max(abs(lo), abs(hi)))
        if f == "floor":
            t, lo, hi = self.fix_bounded(e, 6.0)
            return ("(%s + %s%s))" % (t, fn, t), lo + math.floor(lo) ,
                    hi + math.floor(hi))
        if f == "pow":
            b = self.fix_positive(self.fix_bounded(e, 2.0), 0.3)
            if ch.chance(0.5):
                p = ch.pick([2.0, 0.5, 3.0, 1.5, -1.0])
                vs = [b[1] ** p, b[2] ** p]
                return ("%s%s, %s)" % (fn, b[0], lit(p)), min(vs), max(vs))
            x = self.leaf_or_small()
            x = self.fix_open(x, 1.5)
            vs = [bb ** xx for bb in (b[1], b[2]) for xx in (x[1], x[2])]
            return ("%s%s, %s)" % (fn, b[0], x[0]), min(vs), max(vs))
        if f == "hypot":
            t, lo, hi = self.fix_bounded(e, 4.0)
            m = max(abs(lo), abs(hi))
            return ("%s%s, 0.75$)" % (fn, t), 0.75, math.hypot(m, 0.75))
        # atan2 (y, x) with x positive
        t, lo, hi = self.fix_bounded(e, 4.0)
        d = self.fix_positive(self.leaf_or_small(), 0.3)
        return ("%s%s, %s)" % (fn, t, d[0]), -math.pi / 2, math.pi / 2)

    def leaf_or_small(self):
        return self.ch.pick(self.leaves)

    def expr(self, depth):
        ch = self.ch
        if depth <= 0 or not ch.chance(0.75):
            if ch.chance(0.04):
                v = ch.pick([0.5, 2.0, -1.25, 0.75, 3.0])
                return (lit(v), v, v)
            return ch.pick(self.leaves)
        op = ch.weighted([("un", 5), ("+", 3), ("*", 3), ("-", 2),
                          ("/", 1), ("max", 1), ("sel", 1)])
        if op == "un":
            return self.size(self.unary(self.expr(depth - 1)))
        a = self.expr(depth - 1)
        b = self.expr(depth - 1)
        if op == "+" or (op == "-" and a[0] == b[0]):
            # (a - a) is 0 with a gradient of 0: nothing to check, and a
            # kernel where the planted faults of --self-test change nothing
            return self.size(("(%s + %s)" % (a[0], b[0]), a[1] + b[1],
                              a[2] + b[2]))
        if op == "-":
            return self.size(("(%s - %s)" % (a[0], b[0]), a[1] - b[2],
                              a[2] - b[1]))
        if op == "*":
            lo, hi = ival_mul(a[1:], b[1:])
            return self.size(("%s * %s" % (self.paren(a[0]),
                                           self.paren(b[0])), lo, hi))
        if op == "/":
            b = self.fix_positive(b, 0.3)
            lo, hi = ival_mul(a[1:], (1 / b[2], 1 / b[1]))
            self.tag("divide")
            return self.size(("%s / %s" % (self.paren(a[0]),
                                           self.paren(b[0])), lo, hi))
        if op == "max":
            f = ch.pick(["fmax", "fmin"])
            self.tag("f-" + f)
            if f == "fmax":
                r = (max(a[1], b[1]), max(a[2], b[2]))
            else:
                r = (min(a[1], b[1]), min(a[2], b[2]))
            return ("%s%s, %s)" % (self.fname(f), a[0], b[0]),) + r
        # a compare-select
        self.tag("select")
        c = self.expr(0)
        d = self.expr(0)
        cmp = ch.pick([">", "<", ">=", "<="])
        return ("(%s %s %s ? %s : %s)" % (c[0], cmp, d[0], a[0], b[0]),
                min(a[1], b[1]), max(a[2], b[2]))

    def paren(self, t):
        if re.match(r"^[\w.$\[\]*+ ()-]*$", t) and (" + " in t or " - " in t
                                                    or " ? " in t) \
                and not (t.startswith("(") and t.endswith(")")):
            return "(" + t + ")"
        return t

    def size(self, e):
        t, lo, hi = e
        if max(abs(lo), abs(hi)) > 20:
            return self.fix_bounded(e, 8.0)
        return e

    def body_expr(self, leaves, depth=None):
        self.leaves = leaves
        if depth is None:
            depth = self.ch.draw(4)
        return self.expr(depth)
