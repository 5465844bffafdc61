"""tgrefused -- constructs the plugin refuses today, generated so that the
refusal rate of each is measured (a mixin of tggen.Gen)."""


class Refused:

    # -- constructs the plugin refuses today -----------------------------
    def st_refused(self, kind):
        ch = self.ch
        self.tag("R:" + kind)
        n = self.new_dim(minv=2)
        x = self.get_array([n])
        xe = x.name + "[i]"
        if kind == "rolling-mod3":
            self.st_rolling(3)
            return
        if kind == "reverse-loop":
            y = self.new_dest([n], x.lo, x.hi, allow_tmp=False)
            self.emit(["  for (int i = %s - 1; i >= 0; i--)" % n.text,
                       "    %s[i] = sin$(%s);" % (y.name, xe)])
        elif kind == "reverse-recurrence":
            y = self.new_dest([n], -n.v * 2, n.v * 2, allow_tmp=False)
            self.emit(["  %s[%s - 1] = %s[%s - 1];" % (y.name, n.text,
                                                       x.name, n.text),
                       "  for (int i = %s - 2; i >= 0; i--)" % n.text,
                       "    %s[i] = %s[i+1] * 0.5$ + %s;" % (y.name, y.name,
                                                             xe)])
        elif kind == "break":
            y = self.out_param(n.v)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      if (%s > 100.0$)" % xe,
                       "        break;",
                       "      %s[i] = cos$(%s);" % (y, xe), "    }"])
        elif kind == "while-data":
            y = self.out_param(n.v)
            self.emit(["  int w = 0;",
                       "  while (w < %s && %s[w] < 100.0$)" % (n.text,
                                                              x.name),
                       "    {", "      %s[w] = exp$(%s[w]);" % (y, x.name),
                       "      w++;", "    }"])
        elif kind == "scratch-per-iteration":
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
        elif kind == "if-in-reduce":
            acc = self.fresh("s")
            self.emit(["  $T %s = 0.0$;" % acc,
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      if (%s > 0.013$)" % xe,
                       "        %s += %s * %s;" % (acc, xe, xe),
                       "      else", "        %s -= 0.5$ * %s;" % (acc, xe),
                       "    }"])
            self.finish_scalar(acc, -20, 20)
        elif kind == "null-test":
            b = self.new_input([n])
            b.kind = "opt"
            y = self.new_dest([n], -4, 4, allow_tmp=False)
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = %s + (%s ? %s[i] : 0.0$);" %
                       (y.name, xe, b.name, b.name)])
        elif kind == "openmp":
            self.k.omp = True
            y = self.new_dest([n], -1, 1, allow_tmp=False)
            self.emit(["#pragma omp parallel for",
                       "  for (int i = 0; i < %s; i++)" % n.text,
                       "    %s[i] = tanh$(%s);" % (y.name, xe)])
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
            self.emit(["  for (int i = 0; i < %s; i++)" % n.text,
                       "    {", "      if (%s > 100.0$)" % xe,
                       "        goto done;",
                       "      %s[i] = sin$(%s);" % (y, xe), "    }",
                       "done:;"])
