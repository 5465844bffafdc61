"""tgrefused -- constructs the plugin refuses today, generated so that the
refusal rate of each is measured (a mixin of tggen.Gen).

A construct the plugin learned moves to a stage kind of its own (loops
counting down, if/else inside a reduction, NULL tests and rolling
buffers modulo 3 did: tgblocks.py's down, branches and optional,
tggen.py's rolling; OpenMP loops are tggen.py's omp); what stays here is refused in every kernel that
has it, so each kernel checks the refusal's message and line."""


class Refused:

    # -- constructs the plugin refuses today -----------------------------
    def st_refused(self, kind):
        ch = self.ch
        self.tag("R:" + kind)
        n = self.new_dim(minv=2)
        x = self.get_array([n])
        xe = x.name + "[i]"
        if kind == "break":
            y = self.out_param(n.v)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      if (%s > 100.0$)" % xe,
                       "        break;",
                       "      %s[i] = cos$(%s);" % (y, xe), "    }"])
        elif kind == "while-data":
            y = self.out_param(n.v)
            w = self.fresh("w")
            self.emit(["  int %s = 0;" % w,
                       "  while (%s < %s && %s[%s] < 100.0$)" % (
                           w, n.text, x.name, w),
                       "    {", "      %s[%s] = exp$(%s[%s]);" % (y, w, x.name,
                                                                 w),
                       "      %s++;" % w, "    }"])
        elif kind == "scratch-partial-overwrite":
            # scratch per row (accepted, tgblocks' rows) that a later loop
            # of the iteration rewrites from its second element: a partial
            # overwrite
            m = self.new_dim()
            x2 = self.get_array([n, m], (-2, 2))
            y = self.new_dest([n], -10, 10, allow_tmp=False)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      $T buf[%d];" % m.v,
                       "      for (int j = 0; j < %s; j++)" % m.text,
                       "        buf[j] = tanh$(%s[i*%s + j]);" % (x2.name,
                                                                  m.text),
                       "      for (int j = 1; j < %s; j++)" % m.text,
                       "        buf[j] = buf[j] * buf[j-1];",
                       "      %s[i] = buf[%s - 1];" % (y.name, m.text),
                       "    }"])
        elif kind == "switch":
            mode = self.fresh("mode")
            self.k.params.append({"kind": "int", "name": mode,
                                  "v": ch.draw(3)})
            y = self.new_dest([n], -3, 3, allow_tmp=False)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    switch (%s)" % mode, "      {",
                       "      case 0: %s[i] = sin$(%s); break;" % (y.name,
                                                                  xe),
                       "      case 1: %s[i] = %s * %s; break;" % (y.name, xe,
                                                                 xe),
                       "      default: %s[i] = exp$(%s); break;" %
                       (y.name, xe), "      }"])
        elif kind == "carried-scalar-inner":
            m = self.new_dim()
            x2 = self.get_array([n, m], (-1, 1))
            y = self.new_dest([n, m], -2, 2, allow_tmp=False)
            s = self.fresh("c")
            self.emit(["  $T %s = 1.0$;" % s,
                       "  for (int i = 0; i < %s; i++)" % n.text, "    {",
                       "      for (int j = 0; j < %s; j++)" % m.text,
                       "        %s[i*%s + j] = %s * %s[i*%s + j];" %
                       (y.name, m.text, s, x2.name, m.text),
                       "      %s = 0.5$ * %s + %s[i*%s];" % (s, s, x2.name,
                                                             m.text),
                       "    }"])
        elif kind == "partial-overwrite":
            t = self.fresh("t")
            self.k.decls.append("  $T %s[%s];" % (t, n.text))
            y = self.new_dest([n], -4, 4, allow_tmp=False)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = sin$(%s);" % (t, xe),
                       "  for (int i = 0; i < %s - 1; i++)" % n.text,
                       "    %s[i] = %s[i] * %s[i+1];" % (t, t, t),
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = %s[i] + %s;" % (y.name, t, xe)])
        elif kind == "scatter-store":
            ix = self.idx_param(n.v, n.v)
            y = self.out_param(n.v)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = 0.0$;" % y,
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[%s[i]] = tanh$(%s);" % (y, ix, xe)])
        elif kind == "goto":
            y = self.out_param(n.v)
            lab = self.fresh("done")
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      if (%s > 100.0$)" % xe,
                       "        goto %s;" % lab,
                       "      %s[i] = sin$(%s);" % (y, xe), "    }",
                       "%s:;" % lab])
        elif kind == "compaction":
            # an integer the loop counts, read inside the loop
            y = self.out_param(n.v)
            c = self.fresh("c")
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = 0.0$;" % y,
                       "  int %s = 0;" % c,
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    if (%s > 0.013$)" % xe,
                       "      %s[%s++] = tanh$(%s);" % (y, c, xe)])
        elif kind == "unrolled-stores":
            # a body unrolled by hand into two stores, the odd one after
            y = self.out_param(n.v)
            i = self.fresh("i")
            self.emit(["  int %s;" % i,
                       "  for (%s = 0; %s + 1 < %s; %s += 2)" % (i, i, n.text,
                                                               i),
                       "    {",
                       "      %s[%s] = sin$(%s[%s]);" % (y, i, x.name, i),
                       "      %s[%s + 1] = sin$(%s[%s + 1]);" % (y, i, x.name,
                                                               i),
                       "    }",
                       "  if (%s < %s)" % (i, n.text),
                       "    %s[%s] = sin$(%s[%s]);" % (y, i, x.name, i)])
        elif kind == "carry-batch":
            # state h[H] a time loop carries, inside a loop over the
            # samples (a batch of sequences)
            T, H = self.new_dim(), self.new_dim()
            xb = self.get_array([n, T, H], (-1, 1))
            y = self.new_dest([n, H], -1, 1, allow_tmp=False)
            h = self.fresh("h")
            self.emit(["  for (int b = 0; b < %s; b++)" % n.text,
                       "    {",
                       "      $T %s[%d];" % (h, max(16, H.v)),
                       "      for (int j = 0; j < %s; j++)" % H.text,
                       "        %s[j] = 0.0$;" % h,
                       "      for (int t = 0; t < %s; t++)" % T.text,
                       "        for (int j = 0; j < %s; j++)" % H.text,
                       "          %s[j] = tanh$(0.5$ * %s[j] + "
                       "%s[(b*%s + t)*%s + j]);" % (h, h, xb.name, T.text,
                                                    H.text),
                       "      for (int j = 0; j < %s; j++)" % H.text,
                       "        %s[b*%s + j] = %s[j];" % (y.name, H.text, h),
                       "    }"])
