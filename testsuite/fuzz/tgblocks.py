"""tgblocks -- tggen's block-structured stages (a mixin of tggen.Gen).

Loops as C code writes them when one outer loop does several things per
iteration or a counter is stepped by hand: rows whose body runs several
inner loops over per-row scalars and arrays (softmax, padded and
triangular rows, layernorm, per-row scratch, attention), optional inputs
tested against NULL, integers counted in a loop, tiles with a remainder
loop, state arrays a time loop carries, if/else reductions, loops
counting down, and rows written by memset, memcpy or the two arms of an
if/else.  Each stage draws its variations (float or double from
the plan, pointer offsets into rows, odd sizes, outputs that cache
intermediates) from self.ch like the stages of tggen.py, so a draw of 0
is still the simplest form.

The text is built from blocks: block (HEAD, BODY) is a loop or if whose
body is indented one level (braced when it has more than one line), and
ind () indents a list of lines; the stages emit at one level.
"""

import math
import re

from tgexpr import Arr, ival_mul, lit

TILE_EXTENTS = [5, 13, 3, 8, 1, 16, 7, 9, 2, 4]


def block(head, body):
    """HEAD (a for, if or else line) over BODY (lines), GNU style."""
    if len(body) == 1 and not body[0].startswith(("for ", "if ")):
        return [head, "  " + body[0]]
    return [head, "  {"] + ["    " + l for l in body] + ["  }"]


def ind(lines, n=1):
    return ["  " * n + l for l in lines]


def loop(v, b, body, start="0"):
    return block("for (int %s = %s; %s < %s; %s++)" % (v, start, v, b, v),
                 body)


def at0(text, v):
    """TEXT with its index variable V replaced by 0 (the first element)."""
    return re.sub(r"\b%s\b" % v, "0", text)


class Blocks:

    # -- helpers ---------------------------------------------------------
    def fn(self, f):
        """F's spelling without its parenthesis (exp$): fname's."""
        return self.fname(f)[:-1]

    def row_view(self, arr, r, L, const=True):
        """How the loop over R reads (or writes) row R of ARR, rows of L
        elements: through a pointer offset declared first, or flat.
        (declarations, f) with f (j) the element at column text j."""
        if self.ch.chance(0.4):
            p = self.fresh("r")
            self.tag("row-pointer")
            return (["%s$T *%s = %s + %s*%s;" % ("const " if const else "", p,
                                                 arr.name, r, L)],
                    lambda j: "%s[%s]" % (p, j))
        return [], lambda j: "%s[%s*%s + %s]" % (arr.name, r, L, j)

    def row_expr(self, leaf, b=3.0):
        """A bounded expression of LEAF (text, lo, hi), maybe scaled by a
        scalar (a temperature)."""
        ch = self.ch
        leaves = [leaf]
        if ch.chance(0.2):
            leaves.append(self.scalar_param(0.5, 1.5))
        e = self.body_expr(leaves, ch.draw(2))
        return self.fix_bounded(e, b)

    def scratch_decl(self, name, d):
        """A local array of D's extent declared in a loop's body: a VLA,
        or a fixed size at least as large (double h[16])."""
        if not d.text.isdigit() and self.ch.chance(0.5):
            self.tag("vla")
            return "$T %s[%s];" % (name, d.text)
        return "$T %s[%d];" % (name, max(16, d.v) if self.ch.chance(0.5)
                               else d.v)

    def new_opt_input(self, d):
        """An optional input of extent D: read only behind a NULL test, so
        no other stage reads it (not in the pool)."""
        a = self.new_input([d])
        self.pool.remove(a)
        self.k.params[-1]["opt"] = True
        self.tag("optional")
        return a

    def max_update(self, m, e):
        ch = self.ch
        s = ch.draw(3)
        if s == 0:
            self.tag("f-fmax")
            return ["%s = %s%s, %s);" % (m, self.fname("fmax"), m, e)]
        if s == 1:
            self.tag("compare-assign")
            return ["if (%s > %s)" % (e, m), "  %s = %s;" % (m, e)]
        self.tag("select")
        return ["%s = %s > %s ? %s : %s;" % (m, e, m, e, m)]

    # -- rows: an outer loop whose body runs several inner loops ---------
    def st_rows(self):
        ch = self.ch
        kind = ch.pick(["softmax", "layernorm", "scratch", "causal",
                        "padded", "mlp", "attention"])
        self.tag("rows")
        self.tag("rows-" + kind)
        if kind in ("softmax", "padded"):
            self.rows_softmax(kind == "padded")
        else:
            getattr(self, "rows_" + kind)()

    def st_causal_tail(self):
        """rows_causal's forms with the tail zeroed by a loop of its own or
        memset, before or after the normalization (--stages only)."""
        self.tag("rows")
        self.tag("rows-causal")
        self.rows_causal(tail=True)

    def softmax_body(self, E, v, lo_loop, p_at, m, z, V, cache):
        """The per-row softmax of E (text over index V) into p_at (f):
        max, exponentials and sum, normalization.  LO_LOOP is the loop
        header's text over V ("for (int j = 0; j < n; j++)")."""
        ch = self.ch
        out = []
        if ch.chance(0.25):
            out.append("$T %s = %s;" % (m, at0(E, v)))
        else:
            out.append("$T %s = -1e30$;" % m)
        out += block(lo_loop, self.max_update(m, E))
        out.append("$T %s = 0.0$;" % z)
        style = ch.draw(3)
        ex = "%s(%s - %s)" % (self.fn("exp"), E, m)
        if style == 0:
            out += block(lo_loop, ["%s = %s;" % (p_at(v), ex),
                                   "%s += %s;" % (z, p_at(v))])
        elif style == 1:
            e = self.fresh("e")
            out += block(lo_loop, ["$T %s = %s;" % (e, ex),
                                   "%s += %s;" % (z, e),
                                   "%s = %s;" % (p_at(v), e)])
        else:
            out += block(lo_loop, ["%s += %s;" % (z, ex)])
        before = len(out)
        if style == 2:
            out += block(lo_loop, ["%s = %s / %s;" % (p_at(v), ex, z)])
        else:
            n = ch.draw(3)
            if n == 0:
                out += block(lo_loop, ["%s /= %s;" % (p_at(v), z)])
            elif n == 1:
                rz = self.fresh("rz")
                out.append("$T %s = 1.0$ / %s;" % (rz, z))
                out += block(lo_loop, ["%s *= %s;" % (p_at(v), rz)])
                self.tag("reciprocal")
            else:
                out += block(lo_loop, ["%s = %s / %s;" % (p_at(v), p_at(v),
                                                          z)])
        nnorm = len(out) - before
        stores = ["%s = %s;" % (what, {"m": m, "z": z, "lse": "%s + %s(%s)"
                                       % (m, self.fn("log"), z)}[val])
                  for what, val in cache]
        if style != 2 and any(val != "m" for _, val in cache):
            if not self.ch.chance(0.5):
                # Stored before the loop that rewrites what z summed.
                return out[:-nnorm] + stores + out[-nnorm:]
            # After it: the sum reads the version before the rewrite
            # (version.c's early reads; a wrong gradient until 73d4af4).
            self.tag("rows-cache-after-inplace")
        return out + stores

    def row_caches(self, R, elo, ehi, V):
        """Outputs caching a row's statistics: [(store text, which)]."""
        ch = self.ch
        cache = []
        if ch.chance(0.3):
            self.tag("cache")
            for which in ch.pick([["m"], ["z"], ["lse"], ["m", "z"]]):
                lo, hi = {"m": (elo, ehi), "z": (1.0, V), "lse":
                          (elo, ehi + math.log(V))}[which]
                a = self.new_dest([R], lo, hi, allow_tmp=False)
                cache.append(("%s[%s]" % (a.name, "b"), which))
        return cache

    def rows_softmax(self, padded):
        ch = self.ch
        R, V = self.new_dim(), self.new_dim()
        L = V
        if padded:
            L = self.new_dim(V.v + ch.pick([1, 3, 2]), reuse=False)
            self.tag("padded")
        x = self.get_array([R, L], (-3, 3))
        dx, xr = self.row_view(x, "b", L.text)
        E = self.row_expr((xr("j"), x.lo, x.hi))
        cache = self.row_caches(R, E[1], E[2], V.v)
        y = self.new_dest([R, L], 0, 1)
        dy, yr = self.row_view(y, "b", L.text, const=False)
        m, z = self.fresh("m"), self.fresh("z")
        head = "for (int j = 0; j < %s; j++)" % V.text
        body = dx + dy + self.softmax_body(E[0], "j", head, yr, m, z,
                                           V.text, cache)
        if padded:
            body += block("for (int j = %s; j < %s; j++)" % (V.text, L.text),
                          ["%s = 0.0$;" % yr("j")])
        # The cross-entropy of the row at a target from an index array,
        # in the row's loop or in a loop of its own after it: its
        # adjoint reaches one element per row (lib/passes/points.c).
        if ch.chance(0.4):
            self.tag("rows-xent")
            ix = self.idx_param(R.v, V.v)
            lo = self.new_dest([R], -0.5, 12, allow_tmp=False)
            at = "%s[b*%s + %s[b]]" % (y.name, L.text, ix)
            apart = ch.chance(0.5)
            if not apart and ch.chance(0.5):
                row = self.fresh("pr")
                body.append("const $T *%s = %s + b*%s;" % (row, y.name,
                                                           L.text))
                at = "%s[%s[b]]" % (row, ix)
            loss = ["%s[b] = -%s(%s);" % (lo.name, self.fn("log"), at)]
            if apart:
                self.tag("rows-xent-apart")
                self.emit(ind(loop("b", R.text, body)))
                self.emit(ind(loop("b", R.text, loss)))
                return
            body += loss
        self.emit(ind(loop("b", R.text, body)))

    def rows_causal(self, tail=False):
        """A causal softmax: row t's max, exponentials and sum over u <= t,
        then a loop over the whole row dividing the first t + 1 and
        zeroing the rest, or the row normalized over u <= t and its tail
        zeroed from t + 1 by a loop or memset, before or after (or a
        third loop over u <= t), or the tail zeroed and then the whole
        row divided.  TAIL: only the forms with the tail."""
        ch = self.ch
        T = self.new_dim()
        s = self.get_array([T, T], (-3, 3))
        E = self.row_expr(("%s[t*%s + u]" % (s.name, T.text), s.lo, s.hi))
        whole = tail or ch.chance(0.7)
        # only the triangle written: an output (whose other elements are
        # zero), never a local array read whole by a later stage
        p = self.new_dest([T, T], 0, 1, allow_tmp=whole)
        pat = "%s[t*%s + %%s]" % (p.name, T.text)
        bound = ch.pick(["u <= t", "u < t + 1"])
        head = "for (int u = 0; %s; u++)" % bound
        m, z = self.fresh("m"), self.fresh("z")
        body = ["$T %s = -1e30$;" % m] + block(head, self.max_update(m, E[0]))
        body.append("$T %s = 0.0$;" % z)
        ex = "%s(%s - %s)" % (self.fn("exp"), E[0], m)
        if whole:
            self.tag("causal-whole-row")
            e = self.fresh("e")
            body += block(head, ["$T %s = %s;" % (e, ex), "%s += %s;" % (z, e),
                                 "%s = %s;" % (pat % "u", e)]) \
                if ch.chance(0.5) else \
                block(head, ["%s = %s;" % (pat % "u", ex),
                             "%s += %s;" % (z, pat % "u")])
            form = 1 + ch.draw(3) if tail else ch.draw(4)
            if form == 3:
                # the tail zeroed after the exponentials, then the whole
                # row normalized in place (version.c joins the two)
                self.tag("causal-tail-whole-norm")
                if ch.chance(0.3):
                    body += ["memset (&%s, 0, (%s - t - 1) * sizeof ($T));" %
                             (pat % "t + 1", T.text)]
                else:
                    body += loop("u", T.text, ["%s = 0.0$;" % (pat % "u")],
                                 start="t + 1")
                body += loop("u", T.text, ["%s /= %s;" % (pat % "u", z)])
            elif form == 0:
                c = ch.pick(["u <= t", "t >= u", "u < t + 1"])
                body += loop("u", T.text, ["%s = %s ? %s / %s : 0.0$;" %
                                           (pat % "u", c, pat % "u", z)])
            else:
                # the tail zeroed by a loop of its own (before or after
                # the row is normalized), or with memset; the row scaled
                # by 1 / z or divided
                self.tag("causal-tail")
                if ch.chance(0.5):
                    r = self.fresh("r")
                    body += ["$T %s = 1.0$ / %s;" % (r, z)]
                    norm = block(head, ["%s *= %s;" % (pat % "u", r)])
                else:
                    norm = block(head, ["%s /= %s;" % (pat % "u", z)])
                if ch.chance(0.3):
                    tail = ["memset (&%s, 0, (%s - t - 1) * sizeof ($T));" %
                            (pat % "t + 1", T.text)]
                else:
                    tail = loop("u", T.text, ["%s = 0.0$;" % (pat % "u")],
                                start="t + 1")
                body += norm + tail if form == 1 else tail + norm
        else:
            body += block(head, ["%s += %s;" % (z, ex)])
            body += block(head, ["%s = %s / %s;" % (pat % "u", ex, z)])
        self.emit(ind(loop("t", T.text, body)))

    def rows_layernorm(self):
        ch = self.ch
        R, V = self.new_dim(), self.new_dim(minv=2)
        x = self.get_array([R, V], (-2, 2))
        dx, xr = self.row_view(x, "i", V.text)
        g = self.get_array([V], (0.5, 1.5)) if ch.chance(0.6) else None
        bb = self.get_array([V]) if ch.chance(0.5) else None
        mx = math.sqrt(V.v) * (g.hi if g else 1) + (max(abs(bb.lo),
                                                        abs(bb.hi))
                                                    if bb else 0)
        y = self.new_dest([R, V], -mx, mx)
        s, mu, v, r = (self.fresh(c) for c in "smvr")
        d = "(%s - %s)" % (xr("j"), mu)
        yv = "%s * %s" % (d, r)
        if g:
            yv += " * %s[j]" % g.name
        if bb:
            yv += " + %s[j]" % bb.name
        body = dx + ["$T %s = 0.0$;" % s] + \
            loop("j", V.text, ["%s += %s;" % (s, xr("j"))]) + \
            ["$T %s = %s / %s;" % (mu, s, V.text), "$T %s = 0.0$;" % v] + \
            loop("j", V.text, ["%s += %s * %s;" % (v, d, d)]) + \
            ["$T %s = 1.0$ / %s(%s / %s + 0.1$);" % (r, self.fn("sqrt"), v,
                                                    V.text)] + \
            loop("j", V.text, ["%s[i*%s + j] = %s;" % (y.name, V.text, yv)])
        if ch.chance(0.4):
            self.tag("cache")
            mean = self.new_dest([R], x.lo, x.hi, allow_tmp=False)
            rstd = self.new_dest([R], 0, 1 / math.sqrt(0.1), allow_tmp=False)
            body += ["%s[i] = %s;" % (mean.name, mu),
                     "%s[i] = %s;" % (rstd.name, r)]
        self.emit(ind(loop("i", R.text, body)))

    def rows_scratch(self):
        """Per-row scratch rewritten in every iteration of the loop over
        the rows, read by later inner loops of the same iteration."""
        ch = self.ch
        R, M = self.new_dim(), self.new_dim()
        x = self.get_array([R, M], (-2, 2))
        dx, xr = self.row_view(x, "b", M.text)
        buf = self.fresh("buf")
        body = dx + [self.scratch_decl(buf, M)]
        kind = ch.pick(["norm", "dot", "center"])
        self.tag("scratch-" + kind)
        if kind == "norm":
            E = self.row_expr((xr("j"), x.lo, x.hi), 2.5)
            z = self.fresh("z")
            body += loop("j", M.text, ["%s[j] = %s(%s);" % (buf, self.fn(
                "exp"), E[0])])
            body += ["$T %s = 0.0$;" % z]
            body += loop("j", M.text, ["%s += %s[j];" % (z, buf)])
            y = self.new_dest([R, M], 0, 1)
            body += loop("j", M.text, ["%s[b*%s + j] = %s[j] / %s;" %
                                       (y.name, M.text, buf, z)])
        elif kind == "dot":
            self.leaves = [(xr("j"), x.lo, x.hi)]
            u = self.fix_bounded(self.unary((xr("j"), x.lo, x.hi)), 2)
            w = self.get_array([M], (-1, 1))
            o = self.fresh("o")
            body += loop("j", M.text, ["%s[j] = %s;" % (buf, u[0])])
            body += ["$T %s = 0.0$;" % o]
            body += loop("j", M.text, ["%s += %s[j] * %s[j];" % (o, w.name,
                                                                  buf)])
            y = self.new_dest([R], -2 * M.v, 2 * M.v)
            body += ["%s[b] = %s;" % (y.name, o)]
        else:
            E = self.row_expr((xr("j"), x.lo, x.hi), 2)
            s = self.fresh("s")
            body += loop("j", M.text, ["%s[j] = %s;" % (buf, E[0])])
            body += ["$T %s = 0.0$;" % s]
            body += loop("j", M.text, ["%s += %s[j] * %s[j];" % (s, buf,
                                                                  buf)])
            y = self.new_dest([R, M], -3, 3)
            body += loop("j", M.text, ["%s[b*%s + j] = %s[j] / %s(%s + 1.0$);"
                                       % (y.name, M.text, buf,
                                          self.fn("sqrt"), s)])
        self.emit(ind(loop("b", R.text, body)))

    def rows_mlp(self):
        """Per sample, a hidden layer into scratch h[H] (a matrix product
        in the loop that writes it), then a dot product with it."""
        ch = self.ch
        B, D, H = self.new_dim(), self.new_dim(), self.new_dim()
        x = self.get_array([B, D], (-1, 1))
        W1 = self.get_array([H, D], (-1, 1))
        w2 = self.get_array([H], (-1, 1))
        bias = self.get_array([H], (-1, 1)) if ch.chance(0.3) else None
        h, s, o = self.fresh("h"), self.fresh("s"), self.fresh("o")
        dx, xr = self.row_view(x, "b", D.text)
        inner = ["$T %s = %s;" % (s, "%s[j]" % bias.name if bias else
                                  "0.0$")] + \
            loop("i", D.text, ["%s += %s[j*%s + i] * %s;" % (s, W1.name,
                                                             D.text, xr("i"))])
        act = ch.pick(["tanh", "sin", "atan"])
        inner.append("%s[j] = %s(%s);" % (h, self.fn(act), s))
        body = dx + [self.scratch_decl(h, H)] + loop("j", H.text, inner) + \
            ["$T %s = 0.0$;" % o] + \
            loop("j", H.text, ["%s += %s[j] * %s[j];" % (o, w2.name, h)])
        y = self.new_dest([B], -2 * H.v, 2 * H.v)
        body.append("%s[b] = %s;" % (y.name, o))
        self.emit(ind(loop("b", B.text, body)))

    def rows_attention(self):
        """Single-head attention: per position t, the scores against the
        positions u (u <= t when causal), their softmax and the weighted
        sum of the values; the scores are an output (a cache) or a
        per-row scratch."""
        ch = self.ch
        T, D = self.new_dim(), self.new_dim()
        q = self.get_array([T, D], (-1, 1))
        k = self.get_array([T, D], (-1, 1))
        v = self.get_array([T, D], (-1, 1))
        causal = ch.chance(0.6)
        cached = ch.chance(0.5)
        self.tag("attention-causal" if causal else "attention-full")
        bound = ch.pick(["u <= t", "u < t + 1"]) if causal else \
            "u < %s" % T.text
        head = "for (int u = 0; %s; u++)" % bound
        scale = lit(round(1 / math.sqrt(D.v), 4))
        body = []
        if cached:
            self.tag("cache")
            sc = self.new_dest([T, T], -D.v, D.v, allow_tmp=False)
            sat = "%s[t*%s + u]" % (sc.name, T.text)
        else:
            w = self.fresh("w")
            body.append(self.scratch_decl(w, T))
            sat = "%s[u]" % w
        p = self.new_dest([T, T], 0, 1, allow_tmp=not cached)
        pat = "%s[t*%s + u]" % (p.name, T.text)
        dq, qr = self.row_view(q, "t", D.text)
        m, z, s = self.fresh("m"), self.fresh("z"), self.fresh("s")
        body += dq + ["$T %s = -1e30$;" % m]
        body += block(head, ["$T %s = 0.0$;" % s] +
                      loop("i", D.text, ["%s += %s * %s[u*%s + i];" %
                                         (s, qr("i"), k.name, D.text)]) +
                      ["%s = %s * %s;" % (sat, s, scale)] +
                      self.max_update(m, sat))
        body.append("$T %s = 0.0$;" % z)
        body += block(head, ["%s = %s(%s - %s);" % (pat, self.fn("exp"),
                                                    sat, m),
                             "%s += %s;" % (z, pat)])
        if causal:
            body += loop("u", T.text, ["%s = u <= t ? %s / %s : 0.0$;" %
                                       (pat, pat, z)])
        else:
            body += block(head, ["%s /= %s;" % (pat, z)])
        out = self.new_dest([T, D], -1, 1)
        oat = "%s[t*%s + i]" % (out.name, D.text)
        if ch.chance(0.5):
            body += loop("i", D.text, ["%s = 0.0$;" % oat])
            body += block(head, loop("i", D.text, ["%s += %s * %s[u*%s + i];"
                                                   % (oat, pat, v.name,
                                                      D.text)]))
        else:
            a = self.fresh("a")
            body += loop("i", D.text, ["$T %s = 0.0$;" % a] +
                         block(head, ["%s += %s * %s[u*%s + i];" %
                                      (a, pat, v.name, D.text)]) +
                         ["%s = %s;" % (oat, a)])
        self.emit(ind(loop("t", T.text, body)))

    # -- optional inputs -------------------------------------------------
    def st_optional(self):
        """A pointer parameter tested against NULL, read only behind its
        test; the harness runs with the array and with NULL."""
        ch = self.ch
        kind = ch.pick(["elem", "dense", "if", "gain", "reduce"])
        self.tag("optional-" + kind)
        spell = ch.pick(["%s != NULL ? %s : 0.0$", "%s ? %s : 0.0$",
                         "!%s ? 0.0$ : %s", "%s == NULL ? 0.0$ : %s"])

        def test(b, e):
            return "(" + spell.replace("%s", b, 1).replace("%s", e, 1) + ")"
        if kind == "dense":
            N, I, O = self.new_dim(), self.new_dim(), self.new_dim()
            x = self.get_array([N, I], (-1, 1))
            w = self.get_array([O, I], (-1, 1))
            b = self.new_opt_input(O)
            v = self.fresh("v")
            form = ch.draw(3)
            if form == 0:
                init = ["$T %s = %s;" % (v, test(b.name, b.name + "[o]"))]
            elif form == 1:
                init = ["$T %s;" % v, "if (%s)" % b.name,
                        "  %s = %s[o];" % (v, b.name), "else",
                        "  %s = 0.0$;" % v]
            else:
                init = ["$T %s = 0.0$;" % v]
            inner = init + loop("i", I.text, ["%s += %s[n*%s + i] * %s[o*%s"
                                              " + i];" % (v, x.name, I.text,
                                                          w.name, I.text)])
            if form == 2:
                inner.append("%s += %s;" % (v, test(b.name, b.name + "[o]")))
            act = ch.pick(["tanh", "sin", ""])
            y = self.new_dest([N, O], -I.v - 1, I.v + 1)
            inner.append("%s[n*%s + o] = %s(%s);" % (
                y.name, O.text, self.fn(act) if act else "", v))
            self.emit(ind(loop("n", N.text, loop("o", O.text, inner))))
            return
        n = self.new_dim()
        leaves = self.leaves_for([n], ["i"])
        e = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 3)
        b = self.new_opt_input(n)
        bl, bh = min(b.lo, 0), max(b.hi, 0)
        if kind == "reduce":
            s = self.fresh("s")
            self.emit(["  $T %s = 0.0$;" % s] + ind(loop("i", n.text, [
                "%s += %s;" % (s, e[0]), "if (%s)" % b.name,
                "  %s += %s[i];" % (s, b.name)])))
            self.finish_scalar(s, n.v * (e[1] + bl), n.v * (e[2] + bh))
            return
        if kind == "gain":
            g = test(b.name, b.name + "[i]").replace("0.0$", "1.0$")
            lo, hi = min(0, e[1] * b.hi, e[1] * b.lo, e[1]), \
                max(0, e[2] * b.hi, e[2] * b.lo, e[2])
            y = self.new_dest([n], lo - 3, hi + 3)
            body = ["%s[i] = %s * %s;" % (y.name, self.paren(e[0]), g)]
        elif kind == "if":
            v = self.fresh("v")
            y = self.new_dest([n], e[1] + bl, e[2] + bh)
            body = ["$T %s = %s;" % (v, e[0]), "if (%s)" % b.name,
                    "  %s += %s[i];" % (v, b.name),
                    "%s[i] = %s;" % (y.name, v)]
        else:
            y = self.new_dest([n], e[1] + bl, e[2] + bh)
            body = ["%s[i] = %s + %s;" % (y.name, e[0],
                                          test(b.name, b.name + "[i]"))]
        self.emit(ind(loop("i", n.text, body)))

    # -- integers counted in a loop --------------------------------------
    def st_count(self):
        ch = self.ch
        kind = ch.pick(["mask", "weights", "valid", "rows", "matrix",
                        "later"])
        self.tag("count-" + kind)
        ctype = ch.pick(["int", "int", "long"])
        c, s = self.fresh("c"), self.fresh("s")
        if kind in ("rows", "matrix"):
            R, n = self.new_dim(), self.new_dim()
            x = self.get_array([R, n], (-2, 2))
            e = self.row_expr(("%s[r*%s + j]" % (x.name, n.text), x.lo, x.hi))
            mk = self.idx_param(R.v * n.v, ch.pick([2, 3]))
            cond = ch.pick(["%s[r*%s + j]", "%s[r*%s + j] > 0",
                            "%s[r*%s + j] != 0"]) % (mk, n.text)
            step = ch.pick(["%s++;", "%s += 2;", "%s += 1;"]) % c
            k = 2 if "2" in step else 1
            upd = block("if (%s)" % cond, ["%s += %s;" % (s, e[0]), step])
            res = "%s ? %s%s / %s : 0.0$" % (c, "2 * " if k == 2 else "", s,
                                             c)
            if kind == "rows":
                y = self.new_dest([R], e[1], e[2])
                self.emit(ind(loop("r", R.text, [
                    "%s %s = 0;" % (ctype, c), "$T %s = 0.0$;" % s] +
                    loop("j", n.text, upd) + ["%s[r] = %s;" % (y.name, res)])))
                return
            self.emit(["  $T %s = 0.0$;" % s, "  %s %s = 0;" % (ctype, c)] +
                      ind(loop("r", R.text, loop("j", n.text, upd))))
            mres = self.fresh("mean")
            self.emit(["  $T %s = %s;" % (mres, res)])
            self.finish_scalar(mres, e[1], e[2])
            return
        n = self.new_dim()
        x = self.get_array([n], (-2, 2))
        e = self.row_expr(("%s[i]" % x.name, x.lo, x.hi))
        if kind == "valid":
            thr = lit(round((x.lo + x.hi) / 2 + 0.013, 3))
            body = ["%s += (%s[i] >= %s);" % (c, x.name, thr),
                    "%s += %s[i] >= %s ? %s : 0.0$;" % (s, x.name, thr, e[0])]
        elif kind == "weights":
            mk = self.idx_param(n.v, ch.pick([2, 3]))
            body = ["%s += %s[i] * %s;" % (s, mk, self.paren(e[0])),
                    "%s += %s[i];" % (c, mk)]
            e = (e[0], 2 * e[1], 2 * e[2])
        else:
            if kind == "later" or ch.chance(0.3):
                cond = "%s[i] > %s" % (x.name, lit(round(
                    (x.lo + x.hi) / 2 + 0.013, 3)))
            else:
                mk = self.idx_param(n.v, ch.pick([2, 3]))
                cond = ch.pick(["%s[i]", "%s[i] > 0", "%s[i] == 1"]) % mk
            body = block("if (%s)" % cond, ["%s += %s;" % (s, e[0]),
                                            "%s++;" % c])
        self.emit(["  $T %s = 0.0$;" % s, "  %s %s = 0;" % (ctype, c)] +
                  ind(loop("i", n.text, body)))
        if kind == "later":
            y = self.new_dest([n], x.lo + min(e[1], 0) - 1,
                              x.hi + max(e[2], 0) + 1)
            self.emit(ind(loop("i", n.text, ["%s[i] = %s[i] - %s / (%s + 1);"
                                             % (y.name, x.name, s, c)])))
            return
        res = ch.pick(["%s ? %s / %s : 0.0$", "%s > 0 ? %s / %s : 0.0$",
                       "%s / (%s + 1)"])
        if res.startswith("%s /"):
            res = res % (s, c)
        else:
            res = res % (c, s, c)
        mres = self.fresh("mean")
        self.emit(["  $T %s = %s;" % (mres, res)])
        self.finish_scalar(mres, min(e[1], 0), max(e[2], 0))

    # -- counters stepped by hand: tiles and a remainder -----------------
    def tile_loop(self, i, T, n):
        """A loop over tiles of T from 0 whose counter I (declared at the
        top level, so a remainder loop continues from it) stops where the
        last whole tile ends, or, bounded by a variable holding the
        rounded size, a remainder loop of its own from that variable:
        (declaration, for line, the remainder's for line)."""
        ch = self.ch
        forms = ["i + T <= n", "i + T-1 < n", "i < n - n % T",
                 "i < n / T * T", "i <= n - T"]
        if T in (2, 4, 8):
            forms += ["i < (n & ~(T-1))", "shift"]
        form = ch.pick(forms)
        if form == "shift":
            sh = {2: 1, 4: 2, 8: 3}[T]
            cond = "@ < (%s >> %d) << %d" % (n, sh, sh)
        else:
            cond = form.replace("T-1", str(T - 1)).replace("T", str(T)) \
                .replace("i", "@").replace("n", n)
        cond = cond.replace("@", i)
        self.tag("tile-bound-" + form.replace(" ", ""))
        rest = "for (; %s < %s; %s++)" % (i, n, i)
        if cond.startswith(i + " < ") and ch.chance(0.3):
            # int Mt = M - M % 8; ... for (i = Mt; i < M; i++)
            mt = self.fresh("mt")
            self.tag("tile-bound-var")
            return (["int %s = %s;" % (mt, cond[len(i) + 3:]), "int %s;" % i],
                    "for (%s = 0; %s < %s; %s += %d)" % (i, i, mt, i, T),
                    "for (%s = %s; %s < %s; %s++)" % (i, mt, i, n, i))
        if ch.chance(0.5):
            return (["int %s = 0;" % i], "for (; %s; %s += %d)" % (cond, i, T),
                    rest)
        return (["int %s;" % i], "for (%s = 0; %s; %s += %d)" % (i, cond, i, T),
                rest)

    def tile_dim(self):
        v = TILE_EXTENTS[self.ch.draw(len(TILE_EXTENTS))]
        return self.new_dim(v, reuse=False)

    def st_tiles(self):
        """Counters stepped by hand: tiles of T (an inner loop over the
        tile, a per-tile scratch, partial sums unrolled by 2 with the odd
        element after the loop, a body unrolled by 4, a register-tiled
        matrix product), then the remainder from where the counter
        stopped; sizes that are and are not multiples of the tile."""
        ch = self.ch
        kind = ch.pick(["elem", "scratch", "dot2", "sum4", "matmul"])
        self.tag("tiles-" + kind)
        T = ch.pick([4, 2, 8, 3])
        i = self.fresh("i")
        if kind == "matmul":
            self.tiles_matmul(T, i)
            return
        n = self.tile_dim()
        x = self.get_array([n])
        leaves = [(x.name + "[@]", x.lo, x.hi)]
        if kind == "dot2" or ch.chance(0.4):
            x2 = self.get_array([n])
            leaves.append((x2.name + "[@]", x2.lo, x2.hi))
        if kind == "dot2":
            lo, hi = ival_mul(leaves[0][1:], leaves[1][1:])
            e = ("%s * %s" % (leaves[0][0], leaves[1][0]), lo, hi)
        else:
            e = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 3)

        def at(idx, ex=e):
            return ex[0].replace("@", idx)
        if kind == "dot2":
            s0, s1 = self.fresh("s"), self.fresh("s")
            self.emit(["  $T %s = 0.0$, %s = 0.0$;" % (s0, s1),
                       "  int %s;" % i] +
                      ind(block("for (%s = 0; %s + 1 < %s; %s += 2)" %
                                (i, i, n.text, i),
                                ["%s += %s;" % (s0, at(i)),
                                 "%s += %s;" % (s1, at(i + " + 1"))])) +
                      ind(block("if (%s < %s)" % (i, n.text),
                                ["%s += %s;" % (s0, at(i))])))
            r = self.fresh("d")
            self.emit(["  $T %s = %s + %s;" % (r, s0, s1)])
            self.finish_scalar(r, min(n.v * e[1], 0), max(n.v * e[2], 0))
            return
        if kind == "sum4":
            s, t = self.fresh("s"), self.fresh("t")
            decl, head, rhead = self.tile_loop(i, 4, n.text)
            terms = " + ".join(at("%s + %d" % (i, q) if q else i)
                               for q in range(4))
            self.emit(["  $T %s = 0.0$;" % s] + ind(decl) +
                      ind(block(head, ["%s += %s;" % (s, terms)])) +
                      ["  $T %s = 0.0$;" % t] +
                      ind(block(rhead, ["%s += %s;" % (t, at(i))])))
            r = self.fresh("d")
            self.emit(["  $T %s = %s + %s;" % (r, s, t)])
            self.finish_scalar(r, min(n.v * e[1], 0), max(n.v * e[2], 0))
            return
        same = ch.chance(0.7)
        e2 = e if same else self.fix_bounded(self.body_expr(leaves,
                                                            ch.draw(2)), 3)
        m = 2 * max(abs(e[1]), abs(e[2]), abs(e2[1]), abs(e2[2]))
        y = self.new_dest([n], -m, m)
        decl, head, rhead = self.tile_loop(i, T, n.text)
        ir = i + " + r"
        if kind == "elem":
            tile = loop("r", str(T), ["%s[%s] = %s;" % (y.name, ir, at(ir))])
        else:
            t = self.fresh("t")
            w = ch.pick([("2.0$", 2, 2), self.scalar_param(-1, 1)])
            tile = ["$T %s[%d];" % (t, T)] + \
                loop("r", str(T), ["%s[r] = %s;" % (t, at(ir))]) + \
                loop("r", str(T), ["%s[%s] = %s * %s[r];" % (y.name, ir, w[0],
                                                            t)])
        rest = ["%s[%s] = %s;" % (y.name, i, at(i, e2))]
        self.emit(ind(decl) + ind(block(head, tile)) +
                  ind(block(rhead, rest)))

    def tiles_matmul(self, T, i):
        """Rows in tiles of T with a per-tile scratch acc[T], then the
        remainder rows."""
        ch = self.ch
        M, N, K = self.tile_dim(), self.new_dim(), self.new_dim()
        a = self.get_array([M, K], (-1, 1))
        b = self.get_array([K, N], (-1, 1))
        bias = self.get_array([N], (-1, 1)) if ch.chance(0.3) else None
        act = ch.chance(0.3)
        init = "%s[j]" % bias.name if bias else "0.0$"
        c = self.new_dest([M, N], -K.v - 1, K.v + 1)

        def f(v):
            return "%s(%s)" % (self.fn("tanh"), v) if act else v
        acc, s = self.fresh("acc"), self.fresh("s")
        decl, head, rhead = self.tile_loop(i, T, M.text)
        tile = loop("j", N.text,
                    ["$T %s[%d];" % (acc, T)] +
                    loop("r", str(T), ["%s[r] = %s;" % (acc, init)]) +
                    loop("k", K.text, loop("r", str(T), [
                        "%s[r] += %s[(%s + r)*%s + k] * %s[k*%s + j];" %
                        (acc, a.name, i, K.text, b.name, N.text)])) +
                    loop("r", str(T), ["%s[(%s + r)*%s + j] = %s;" %
                                       (c.name, i, N.text,
                                        f("%s[r]" % acc))]))
        rest = loop("j", N.text, ["$T %s = %s;" % (s, init)] +
                    loop("k", K.text, ["%s += %s[%s*%s + k] * %s[k*%s + j];" %
                                       (s, a.name, i, K.text, b.name,
                                        N.text)]) +
                    ["%s[%s*%s + j] = %s;" % (c.name, i, N.text, f(s))])
        self.emit(ind(decl) + ind(block(head, tile)) +
                  ind(block(rhead, rest)))

    # -- state arrays a time loop carries --------------------------------
    def st_carry(self):
        ch = self.ch
        kind = ch.pick(["rnn", "decay", "euler", "out-state", "gru",
                        "stencil", "interior", "scan"])
        self.tag("carry-" + kind)
        if kind == "euler":
            self.carry_euler()
            return
        T, H = self.new_dim(), self.new_dim()
        x = self.get_array([T, H], (-1, 1))
        h, hn = self.fresh("h"), self.fresh("hn")
        if kind == "out-state":
            hs = self.new_dest([H], -1, 1, readable=False, allow_tmp=False)
            h = hs.name
        else:
            self.k.decls.append("  " + self.scratch_decl(h, H))
        self.k.decls.append("  " + self.scratch_decl(hn, H))
        init = ch.draw(3)
        if init == 0 or kind == "out-state":
            h0 = self.get_array([H], (-1, 1))
            self.emit(ind(loop("j", H.text, ["%s[j] = %s[j];" % (h, h0.name)])))
        else:
            self.emit(ind(loop("j", H.text, ["%s[j] = %s;" % (
                h, "0.0$" if init == 1 else "0.25$")])))
        jl, jb = "0", H.text
        if kind == "interior":
            jl, jb = "1", "%s - 1" % H.text
        if kind == "gru":
            # A reset gate read whole by the candidate's matrix product:
            # the step's loops run as one block (blocks.c).
            U = self.get_array([H, H], (-1, 1))
            V = self.get_array([H, H], (-1, 1))
            r, s, s2 = self.fresh("r"), self.fresh("s"), self.fresh("s")
            self.k.decls.append("  " + self.scratch_decl(r, H))
            step = loop("j", H.text, [
                "$T %s = %s[t*%s + j];" % (s, x.name, H.text)] +
                loop("k", H.text, ["%s += 0.5$ * %s[j*%s + k] * %s[k];" %
                                   (s, U.name, H.text, h)]) +
                ["%s[j] = 1.0$ / (1.0$ + %s(-%s));" % (r, self.fn("exp"),
                                                       s)])
            step += loop("j", H.text, [
                "$T %s = %s[t*%s + j];" % (s2, x.name, H.text)] +
                loop("k", H.text, ["%s += 0.5$ * %s[j*%s + k] * (%s[k] * %s[k]);"
                                   % (s2, V.name, H.text, r, h)]) +
                ["%s[j] = 0.5$ * %s[j] + 0.5$ * %s(%s);" %
                 (hn, h, self.fn("tanh"), s2)])
        elif kind == "scan":
            # A scratch row seeded and recurred in every step, after a
            # loop that reads all of the state (a block whose statement
            # recurs over its own loop, blocks.c), up or down the row.
            U = self.get_array([H, H], (-1, 1))
            r, s = self.fresh("r"), self.fresh("s")
            self.k.decls.append("  " + self.scratch_decl(r, H))
            step = loop("j", H.text, [
                "$T %s = %s[t*%s + j];" % (s, x.name, H.text)] +
                loop("k", H.text, ["%s += 0.5$ * %s[j*%s + k] * %s[k];" %
                                   (s, U.name, H.text, h)]) +
                ["%s[j] = %s(%s);" % (r, self.fn("tanh"), s)])
            if ch.chance(0.5):
                self.tag("carry-scan-down")
                step += (["%s[%s - 1] = %s[%s - 1];" % (hn, H.text, r, H.text)]
                         + block("for (int j = %s - 2; j >= 0; j--)" % H.text,
                                 ["%s[j] = 0.5$ * %s[j + 1] + 0.5$ * %s[j];"
                                  % (hn, hn, r)]))
            else:
                step += (["%s[0] = %s[0];" % (hn, r)]
                         + block("for (int j = 1; j < %s; j++)" % H.text,
                                 ["%s[j] = 0.5$ * %s[j - 1] + 0.5$ * %s[j];"
                                  % (hn, hn, r)]))
        elif kind in ("stencil", "interior"):
            # Neighbours behind conditions on the index, or only the
            # interior updated and the boundary kept (carry.c).
            a = ch.pick([("0.25$", 0.25, 0.25), self.scalar_param(0.1, 0.3)])
            if kind == "stencil":
                l, rr = self.fresh("l"), self.fresh("r")
                step = loop("j", H.text, [
                    "$T %s = j > 0 ? %s[j - 1] : 0.0$;" % (l, h),
                    "$T %s = j + 1 < %s ? %s[j + 1] : 0.0$;" % (rr, H.text,
                                                               h),
                    "%s[j] = %s[j] + %s * (%s - 2.0$ * %s[j] + %s) + "
                    "0.1$ * %s[t*%s + j];" % (hn, h, a[0], l, h, rr, x.name,
                                              H.text)])
            else:
                step = loop("j", jb, [
                    "%s[j] = %s[j] + %s * (%s[j - 1] - 2.0$ * %s[j] + "
                    "%s[j + 1]) + 0.1$ * %s[t*%s + j];"
                    % (hn, h, a[0], h, h, h, x.name, H.text)], start=jl)
        elif kind == "rnn":
            U = self.get_array([H, H], (-1, 1))
            s = self.fresh("s")
            step = loop("j", H.text, [
                "$T %s = %s[t*%s + j];" % (s, x.name, H.text)] +
                loop("k", H.text, ["%s += 0.5$ * %s[j*%s + k] * %s[k];" %
                                   (s, U.name, H.text, h)]) +
                ["%s[j] = %s(%s);" % (hn, self.fn("tanh"), s)])
        else:
            a = ch.pick([("0.5$", 0.5, 0.5), self.scalar_param(-1, 1)])
            if ch.chance(0.5):
                w = self.get_array([H], (-1, 1))
                a = ("%s * %s[j]" % (a[0], w.name), -1, 1)
            step = loop("j", H.text, ["%s[j] = %s(%s * %s[j] + %s[t*%s + j]);"
                                      % (hn, self.fn("tanh"), a[0], h,
                                         x.name, H.text)])
        loss = ch.pick([None, None, "before", "after"])
        body = []
        L = None
        lse = False
        if loss:
            self.tag("carry-loss-" + loss)
            L = self.fresh("l")
            yv = self.get_array([T, H], (-1, 1))
            lterm = ["%s += %s[j] * %s[t*%s + j];" % (L, h, yv.name, H.text)]
            lsum = loop("j", H.text, lterm)
            if ch.chance(0.4):
                # A function of a sum over the state in every step (a
                # log-sum-exp): the sum is nested in the loss's sum over
                # t (carry.c runs before hoist).
                lse = True
                self.tag("carry-loss-lse")
                se = self.fresh("se")
                lsum = (["$T %s = 0.0$;" % se] +
                        loop("j", H.text, ["%s += %s(%s[j] * %s[t*%s + j]);"
                                           % (se, self.fn("exp"), h,
                                              yv.name, H.text)]) +
                        ["%s += %s(%s);" % (L, self.fn("log"), se)])
            if loss == "before":
                body += lsum
        copy = ["%s[j] = %s[j];" % (h, hn)]
        every = None
        if ch.chance(0.3):
            self.tag("carry-every-step")
            every = self.new_dest([T, H], -1, 1, allow_tmp=False)
            st = "%s[t*%s + j] = %s[j];" % (every.name, H.text, h)
            if ch.chance(0.5) and kind != "interior":
                copy.append(st)
                body += step + loop("j", jb, copy, start=jl)
            else:
                body += step + loop("j", jb, copy, start=jl) + \
                    loop("j", H.text, [st])
        else:
            body += step + loop("j", jb, copy, start=jl)
        if loss == "after":
            body += lsum
        if L:
            self.emit(["  $T %s = 0.0$;" % L])
        self.emit(ind(loop("t", T.text, body)))
        if kind != "out-state":
            self.pool.append(Arr(h, [H], -1, 1, "tmp"))
            self.tag("local-array")
        if L and lse:
            # Each step's term: log of H terms in [1/e, e].
            b = math.log(H.v) + 1
            self.finish_scalar(L, -T.v * b, T.v * b)
        elif L:
            self.finish_scalar(L, -T.v * H.v, T.v * H.v)

    def carry_euler(self):
        """Explicit Euler with arrays of state: v updated from x, then x
        from the v of the same step."""
        ch = self.ch
        T, n = self.new_dim(), self.new_dim()
        dt = self.scalar_param(0.05, 0.2)[0]
        kk = self.scalar_param(0.5, 1.5)[0]
        damp = self.scalar_param(0.0, 0.5)[0] if ch.chance(0.5) else None
        x0 = self.get_array([n], (-1, 1))
        xs, vs = self.fresh("pos"), self.fresh("vel")
        self.k.decls.append("  " + self.scratch_decl(xs, n))
        self.k.decls.append("  " + self.scratch_decl(vs, n))
        if ch.chance(0.5):
            v0 = self.get_array([n], (-1, 1))
            vinit = "%s[i]" % v0.name
        else:
            vinit = "0.0$"
        self.emit(ind(loop("i", n.text, ["%s[i] = %s[i];" % (xs, x0.name),
                                         "%s[i] = %s;" % (vs, vinit)])))
        f = "%s[i]" % xs if ch.chance(0.5) else \
            "%s[i] * %s[i] * %s[i]" % (xs, xs, xs)
        force = "-%s * %s" % (kk, f)
        if damp:
            force += " - %s * %s[i]" % (damp, vs)
        body = loop("i", n.text, ["%s[i] += %s * (%s);" % (vs, dt, force)])
        xupd = ["%s[i] += %s * %s[i];" % (xs, dt, vs)]
        if ch.chance(0.3):
            self.tag("carry-every-step")
            every = self.new_dest([T, n], -3, 3, allow_tmp=False)
            xupd.append("%s[t*%s + i] = %s[i];" % (every.name, n.text, xs))
        body += loop("i", n.text, xupd)
        self.emit(ind(loop("t", T.text, body)))
        self.pool.append(Arr(vs, [n], -3, 3, "tmp"))
        self.pool.append(Arr(xs, [n], -3, 3, "tmp"))
        self.tag("local-array")

    # -- if/else reductions ----------------------------------------------
    def st_branches(self):
        """A reduction updated in both arms of an if/else with the one
        operation: sum (also -= in an arm), product, else-if chains, a
        Huber loss with a scalar threshold, per row into an element."""
        ch = self.ch
        kind = ch.pick(["sum", "huber", "chain", "prod", "rows"])
        self.tag("branches-" + kind)
        n = self.new_dim()
        x = self.get_array([n], (-1.5, 1.5))
        xe = "%s[i]" % x.name
        s = self.fresh("s")
        mid = lit(round((x.lo + x.hi) / 2 + 0.013, 3))
        if kind == "huber":
            d = self.scalar_param(0.3, 1.0)[0]
            body = ["if (%s <= %s)" % (xe, d),
                    "  %s += 0.5$ * %s * %s;" % (s, xe, xe), "else",
                    "  %s += %s * (%s - 0.5$ * %s);" % (s, d, xe, d)]
            init, lo, hi = "0.0$", -2 * n.v, 2 * n.v
        elif kind == "prod":
            self.leaves = [(xe, x.lo, x.hi)]
            body = ["if (%s > %s)" % (xe, mid),
                    "  %s *= 1.0$ + 0.25$ * %s;" % (s, xe), "else",
                    "  %s *= 1.0$ - 0.125$ * %s;" % (s, xe)]
            init, lo, hi = "1.0$", 0, 1.4 ** n.v
        else:
            leaves = self.leaves_for([n], ["i"])
            e1 = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 3)
            e2 = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 3)
            op2 = "-=" if ch.chance(0.3) else "+="
            if kind == "chain":
                e3 = self.fix_bounded(self.body_expr(leaves, ch.draw(2)), 3)
                body = ["if (%s < %s)" % (xe, lit(-0.5)),
                        "  %s += %s;" % (s, e1[0]),
                        "else if (%s < 0.5$)" % xe,
                        "  %s %s %s;" % (s, op2, e2[0]), "else",
                        "  %s += %s;" % (s, e3[0])]
            else:
                body = ["if (%s > %s)" % (xe, mid), "  %s += %s;" % (s, e1[0]),
                        "else", "  %s %s %s;" % (s, op2, e2[0])]
            init, lo, hi = "0.0$", -3 * n.v, 3 * n.v
        if kind == "rows":
            R = self.new_dim()
            x2 = self.get_array([R, n], (-1.5, 1.5))
            e = "%s[r*%s + i]" % (x2.name, n.text)
            body = [l.replace(xe, e) for l in body]
            y = self.new_dest([R], lo, hi)
            self.emit(ind(loop("r", R.text, ["$T %s = %s;" % (s, init)] +
                               block("for (int i = 0; i < %s; i++)" % n.text,
                                     body) + ["%s[r] = %s;" % (y.name, s)])))
            return
        self.emit(["  $T %s = %s;" % (s, init)] +
                  ind(block("for (int i = 0; i < %s; i++)" % n.text, body)))
        self.finish_scalar(s, lo, hi)

    # -- memset, memcpy and the two arms of an if/else -------------------
    def st_arms(self):
        """Rows of Y written with memset or memcpy and then added to, or
        by the two arms of an if/else, each in a loop of its own or with
        memset/memcpy: the row's parity, a bound on the row, an optional
        input (a bias copied, else the row cleared)."""
        ch = self.ch
        kind = ch.pick(["memset", "memcpy", "parity", "bound", "bias"])
        self.tag("arms-" + kind)
        R, n = self.new_dim(), self.new_dim()
        leaves = self.leaves_for([R, n], ["r", "i"])
        e = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 2)
        size = "%s * sizeof ($T)" % n.text
        whole = ch.chance(0.3) and kind == "memset"
        if kind == "bias":
            b = self.new_opt_input(n)
            fill = (["memcpy (%s + r*%s, %s, %s);" % ("$Y", n.text, b.name,
                                                     size)]
                    if ch.chance(0.5) else
                    loop("i", n.text, ["$Y[r*%s + i] = %s[i];" % (n.text,
                                                                  b.name)]))
            clear = (["memset (%s + r*%s, 0, %s);" % ("$Y", n.text, size)]
                     if ch.chance(0.5) else
                     loop("i", n.text, ["$Y[r*%s + i] = 0.0$;" % n.text]))
            test = ch.pick(["%s", "%s != NULL"]) % b.name
            first = block("if (%s)" % test, fill) + block("else", clear)
            lo, hi = min(b.lo, 0) + e[1], max(b.hi, 0) + e[2]
        elif kind in ("memset", "memcpy"):
            if kind == "memset":
                first = [] if whole else ["memset ($Y + r*%s, 0, %s);" %
                                          (n.text, size)]
                lo, hi = e[1], e[2]
            else:
                x = self.get_array([R, n])
                first = ["memcpy ($Y + r*%s, %s + r*%s, %s);" %
                         (n.text, x.name, n.text, size)]
                lo, hi = x.lo + e[1], x.hi + e[2]
        else:
            cond = ("r % 2" if kind == "parity" else
                    "r < %d" % max(1, R.v // 2))
            e2 = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 2)
            arm1 = (["memset ($Y + r*%s, 0, %s);" % (n.text, size)]
                    if ch.chance(0.5) else
                    loop("i", n.text, ["$Y[r*%s + i] = %s;" % (n.text,
                                                              e2[0])]))
            first = block("if (%s)" % cond, arm1) + block(
                "else", loop("i", n.text, ["$Y[r*%s + i] = %s;" % (n.text,
                                                                  e2[0])]))
            lo, hi = min(0, e2[1]) + e[1], max(0, e2[2]) + e[2]
        y = self.new_dest([R, n], lo, hi)
        add = loop("i", n.text, ["$Y[r*%s + i] += %s;" % (n.text, e[0])])
        body = [l.replace("$Y", y.name) for l in first + add]
        lines = ind(loop("r", R.text, body))
        if whole:
            lines = ["  memset (%s, 0, %s * %s);" % (y.name, R.text,
                                                    size)] + lines
        self.emit(lines)

    # -- loops counting down ---------------------------------------------
    def st_down(self):
        ch = self.ch
        kind = ch.pick(["loop", "recurrence", "store", "countdown"])
        self.tag("down-" + kind)
        n = self.new_dim(minv=2 if kind == "recurrence" else 1)
        x = self.get_array([n])
        leaves = [("%s[i]" % x.name, x.lo, x.hi)]
        if ch.chance(0.3):
            x2 = self.get_array([n])
            leaves.append(("%s[i]" % x2.name, x2.lo, x2.hi))
        e = self.fix_bounded(self.body_expr(leaves, ch.draw(3)), 2)
        down = "for (int i = %s - 1; i >= 0; i--)" % n.text
        if kind == "loop":
            y = self.new_dest([n], e[1], e[2])
            self.emit(ind(block(down, ["%s[i] = %s;" % (y.name, e[0])])))
        elif kind == "recurrence":
            c = ch.draw(3)
            if c == 0:
                a = "0.5$"
            elif c == 1:
                a = self.scalar_param(0.3, 0.95)[0]
            else:
                w = self.get_array([n], (0.25, 1.0))
                a = "%s[i]" % w.name
            m = max(abs(e[1]), abs(e[2]))
            y = self.new_dest([n], -m * n.v, m * n.v)
            e0 = e[0].replace("[i]", "[%s - 1]" % n.text)
            self.emit(["  %s[%s - 1] = %s;" % (y.name, n.text, e0)] +
                      ind(block("for (int i = %s - 2; i >= 0; i--)" % n.text,
                                ["%s[i] = %s[i + 1] * %s + %s;" %
                                 (y.name, y.name, a, e[0])])))
        elif kind == "store":
            y = self.new_dest([n], e[1], e[2])
            self.emit(ind(loop("i", n.text, ["%s[%s - 1 - i] = %s;" %
                                             (y.name, n.text, e[0])])))
        else:
            m2 = self.new_dim(2 * n.v, reuse=False)
            u = self.get_array([m2])
            w = self.new_dest([n], -1, 1)
            self.emit(ind(block(down, ["%s[i] = %s(%s[2*i + 1]);" % (
                w.name, self.fn("tanh"), u.name)])))
            y = self.new_dest([n], -abs(u.lo) - abs(u.hi),
                              abs(u.lo) + abs(u.hi))
            self.emit(ind(loop("i", n.text, ["%s[i] = %s[%s - 1 - i] * "
                                             "%s[2*i];" % (y.name, w.name,
                                                           n.text, u.name)])))

    def st_pairs(self):
        """Rows of pairs, y[r*d + 2*i] and y[r*d + 2*i + 1] for i < d / 2,
        written by two statements of one loop (a rotation by an angle of
        the pair, as rotary embeddings do, or a complex product), the
        tail of an odd row by a loop of its own; or a row's scan seeded
        by a statement of its own, read one element back by a later loop
        of the row (an exclusive scan)."""
        ch = self.ch
        kind = ch.pick(["rot", "cmul", "scan"])
        self.tag("pairs-" + kind)
        R = self.new_dim()
        d = self.new_dim(minv=2)
        x = self.get_array([R, d])
        xn, dt = x.name, d.text
        m = max(abs(x.lo), abs(x.hi))
        if kind == "scan":
            y = self.new_dest([R, d], -m * d.v, m * d.v, allow_tmp=False)
            z = self.new_dest([R, d], -m * d.v, m * d.v)
            row = "r*%s" % dt
            self.emit(ind(loop("r", R.text, [
                "%s[%s] = %s[%s];" % (y.name, row, xn, row)] +
                loop("j", dt, ["%s[%s + j] = %s[%s + j - 1] + %s[%s + j];"
                               % (y.name, row, y.name, row, xn, row)],
                     start="1") +
                ["%s[%s] = 0.0$;" % (z.name, row)] +
                loop("j", dt, ["%s[%s + j] = 0.5$ * %s[%s + j - 1];"
                               % (z.name, row, y.name, row)], start="1"))))
            return
        if kind == "rot":
            if ch.chance(0.5):
                th, _, _ = self.scalar_param(-1.5, 1.5)
                ang = "%s * (i + 1)" % th
            else:
                w = self.get_array([self.new_dim(d.v, reuse=False)])
                ang = "%s[i]" % w.name
            c, s_ = "%s(%s)" % (self.fn("cos"), ang), \
                "%s(%s)" % (self.fn("sin"), ang)
            re_, im = "a * c - b * s", "a * s + b * c"
            pre = ["$T c = %s, s = %s;" % (c, s_)]
            bound = 2 * m
        else:
            w = self.get_array([d])
            pre = ["$T c = %s[2*i], s = %s[2*i + 1];" % (w.name, w.name)]
            re_, im = "a * c - b * s", "a * s + b * c"
            bound = 2 * m * max(abs(w.lo), abs(w.hi))
        y = self.new_dest([R, d], -bound, bound, allow_tmp=False)
        row = "r*%s" % dt
        body = (["$T a = %s[%s + 2*i], b = %s[%s + 2*i + 1];"
                 % (xn, row, xn, row)] + pre +
                ["%s[%s + 2*i] = %s;" % (y.name, row, re_),
                 "%s[%s + 2*i + 1] = %s;" % (y.name, row, im)])
        tail = loop("j", dt, ["%s[%s + j] = %s[%s + j];"
                              % (y.name, row, xn, row)],
                    start="2*(%s / 2)" % dt)
        self.emit(ind(loop("r", R.text,
                           loop("i", "%s / 2" % dt, body) + tail)))

