#!/usr/bin/env python3
"""tgfuzz -- a differential fuzzer of the tensorgrad plugin.

Generates random kernels (tggen.py), compiles each with the plugin at -O0,
-O2, -O3 and -O2 -fplugin-arg-tensorgrad-no-opt, links each object with a
harness (tgharness.py) that checks the gradient against central
differences of a double-precision reference and against the gradient ABI,
and classifies the kernel:

  OK       every configuration compiled and passed
  REFUSED  a clean compile error ("error:" at a line of the kernel's
           source, no internal error) at every configuration
  WRONG    a check failed (gradient, ABI, NULL shadows, forward values)
  CRASH    the test program died by a signal or timed out
  ICE      the compiler failed: "internal compiler error", killed by a
           signal, "internal error" of tensorgrad, an error at a line
           outside the kernel, a compile timeout; and INCONSISTENT
           acceptance (refused at one configuration, accepted at another;
           DESIGN.md promises the same language at every -O level),
           reported as ICE because it is the compiler's fault; and a
           dump-c file that does not compile ("dump-c does not compile:"):
           at the first configuration (-O2 if it is run) the kernel is
           also compiled with -fplugin-arg-tensorgrad-dump-c, and that C
           with gcc -std=c11 -c (warnings allowed)

Kernel K of seed S is reproducible from (S, K) alone:
  tgfuzz.py --seed S --one K --keep DIR
  tgfuzz.py --reduce S:K
"""

import argparse
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tggen  # noqa: E402
import tgharness  # noqa: E402

# libtensorgrad's archive, for keep-products' tg_keep_product: the
# build's (TG_RUNTIME_LIB, else the source tree's, built in place).
RUNTIME_LIB = os.environ.get("TG_RUNTIME_LIB", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib", "runtime",
    ".libs", "libtensorgrad.a"))

CONFIGS = [("O0", ["-O0"]), ("O2", ["-O2"]), ("O3", ["-O3"]),
           ("O2-no-opt", ["-O2", "-fplugin-arg-tensorgrad-no-opt"])]
# More configurations for --configs (DESIGN.md section 3 promises them).
MORE_CONFIGS = [("O1", ["-O1"]), ("Os", ["-Os"]), ("O2-g", ["-O2", "-g"]),
                ("O3-fast-math", ["-O3", "-ffast-math"]),
                ("O3-native", ["-O3", "-march=native"]),
                ("O0-no-opt", ["-O0", "-fplugin-arg-tensorgrad-no-opt"]),
                ("O0-ubsan", ["-O0", "-fsanitize=undefined",
                              "-fno-sanitize-recover"]),
                ("O2-ubsan", ["-O2", "-fsanitize=undefined",
                              "-fno-sanitize-recover"]),
                # Every gradient's nests on OpenMP threads where they can
                # (README, Parallel gradients), run with the default
                # number of threads, whatever their sizes (parallel-min
                # would give the fuzzer's small kernels one thread).
                ("O2-parallel", ["-O2", "-fopenmp",
                                 "-fplugin-arg-tensorgrad-parallel",
                                 "-fplugin-arg-tensorgrad-parallel-min=0"]),
                # Matrix products as CBLAS calls, linked with the CBLAS
                # in TG_CBLAS_LIBS (configure's; default -lopenblas).
                ("O2-blas", ["-O2", "-fplugin-arg-tensorgrad-blas"]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                ("O0-blas", ["-O0", "-fplugin-arg-tensorgrad-blas"]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                # The kernels' own products too (plugin/forward.cc).
                ("O2-blas-forward", ["-O2",
                                     "-fplugin-arg-tensorgrad-blas-forward"]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                ("O0-blas-forward", ["-O0",
                                     "-fplugin-arg-tensorgrad-blas-forward"]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                # Their products into local arrays kept for the
                # gradient (libtensorgrad's tg_keep_product).
                ("O2-blas-forward-keep",
                 ["-O2", "-fplugin-arg-tensorgrad-blas-forward",
                  "-fplugin-arg-tensorgrad-keep-products", RUNTIME_LIB]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                # 3x3 convolutions by libtensorgrad's Winograd on the
                # CBLAS, the kernel's too (its images on OpenMP's
                # threads: the archive needs -fopenmp).
                ("O2-blas-winograd",
                 ["-O2", "-fplugin-arg-tensorgrad-winograd",
                  "-fplugin-arg-tensorgrad-blas-forward", RUNTIME_LIB,
                  "-fopenmp"]
                 + os.environ.get("TG_CBLAS_LIBS", "-lopenblas").split()),
                ("O2-winograd-tiled",
                 ["-O2", "-fplugin-arg-tensorgrad-winograd",
                  "-fplugin-arg-tensorgrad-tiled-forward", RUNTIME_LIB,
                  "-fopenmp"]),
                ("O2-tiled-forward-keep",
                 ["-O2", "-fplugin-arg-tensorgrad-tiled-forward",
                  "-fplugin-arg-tensorgrad-keep-products", RUNTIME_LIB]),
                # The same nests as the tiled product, no library.
                ("O2-tiled-forward", ["-O2",
                                      "-fplugin-arg-tensorgrad-tiled-forward"]),
                ("O0-tiled-forward", ["-O0",
                                      "-fplugin-arg-tensorgrad-tiled-forward"]),
                # The gradients' math calls as libmvec's vector functions
                # (x86_64), within 4 ulp.
                ("O2-vector-math", ["-O2",
                                    "-fplugin-arg-tensorgrad-vector-math"]),
                ("O3-native-vector-math",
                 ["-O3", "-march=native",
                  "-fplugin-arg-tensorgrad-vector-math"]),
                # The kernel's own sums reassociated and its math calls
                # libmvec's (forward.cc's forward_vectorize).
                ("O3-native-vector-forward",
                 ["-O3", "-march=native",
                  "-fplugin-arg-tensorgrad-vector-forward"]),
                # Each gradient in versions for AVX-512F and AVX2 beside
                # the default one (x86_64), the CPU's taken; with -g (the
                # OpenMP regions' bodies lose it) and on threads.
                ("O3-target-clones", ["-O3",
                                      "-fplugin-arg-tensorgrad-target-clones"]),
                ("O2-g-parallel-target-clones",
                 ["-O2", "-g", "-fopenmp", "-fplugin-arg-tensorgrad-parallel",
                  "-fplugin-arg-tensorgrad-parallel-min=0",
                  "-fplugin-arg-tensorgrad-target-clones"]),
                # The kernel in versions too (with vector-forward), its
                # OpenMP regions' bodies as well, with -g.
                ("O3-g-vector-forward-target-clones",
                 ["-O3", "-g", "-fopenmp",
                  "-fplugin-arg-tensorgrad-vector-forward",
                  "-fplugin-arg-tensorgrad-vector-math",
                  "-fplugin-arg-tensorgrad-target-clones"])]
CLASSES = ["OK", "REFUSED", "WRONG", "CRASH", "ICE"]
PRELUDE = "#include <math.h>\n#include <stddef.h>\n#include <string.h>\n"

OPTS = None


def kernel_rng(seed, k):
    return random.Random("tgfuzz:%s:%d" % (seed, k))


def run(cmd, timeout, cwd):
    """Run CMD: (returncode, output, timed_out)."""
    env = dict(os.environ, LC_ALL="C", LANG="C")
    try:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
    except OSError as e:
        return 127, str(e), False
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -9, out.decode("utf-8", "replace"), True


def write_kernel(kern, d, seed_text):
    ktext = PRELUDE + tggen.render(tggen.kernel_text(kern), kern.real)
    with open(os.path.join(d, "kern.c"), "w") as f:
        f.write(ktext)
    with open(os.path.join(d, "harness.c"), "w") as f:
        f.write(tgharness.harness(kern, seed_text))
    return ktext


def classify_compile(rc, out, timed_out, nlines):
    """(class, detail) of a compile with the plugin; class None when it
    succeeded."""
    first = PRELUDE.count("\n") + 1
    if timed_out:
        return "ICE", "compile timeout"
    if "internal compiler error" in out:
        m = re.search(r"internal compiler error: (.*)", out)
        return "ICE", "internal compiler error: " + (m.group(1) if m else "")
    if re.search(r"internal error", out):
        m = re.search(r"(internal error.*)", out)
        return "ICE", m.group(1)
    if rc < 0 or rc > 1:
        return "ICE", "compiler died (status %d)" % rc
    if rc == 0:
        return None, ""
    errs = re.findall(r"^(\S*?):(\d+):(\d+): error: (.*)$", out, re.M)
    if not errs:
        m = re.search(r"error: (.*)", out)
        return "ICE", "error without a location: " + (m.group(1) if m
                                                      else out[:200])
    for f, line, col, msg in errs:
        if not f.endswith("kern.c") or not first <= int(line) <= nlines:
            return "ICE", "error outside the kernel: %s:%s: %s" % (f, line,
                                                                   msg)
    f, line, col, msg = errs[0]
    return "REFUSED", "line %d: %s" % (int(line) - first + 1, msg)


def dumpc_config(configs):
    """The configuration whose compile also writes and checks dump-c."""
    names = [n for n, _ in configs]
    return "O2" if "O2" in names else names[0]


def check_dumpc(cc, d, breakc):
    """Compile dumpc.c in D as C11: None, or why it does not compile.
    BREAKC (the self-test) spoils the file first."""
    if breakc:
        with open(os.path.join(d, "dumpc.c"), "a") as f:
            f.write("\nint planted_error = ;\n")
    rc, out, to = run(cc + ["-std=c11", "-w", "-c", "dumpc.c", "-o",
                            "dumpc.o"], OPTS.compile_timeout, d)
    if rc == 0:
        return None
    m = re.search(r"error: (.*)", out)
    return "dump-c does not compile: " + (m.group(1) if m else out[:300])


def test_kernel(kern, d, seed_text, configs=None, plant=0, dropc=False,
                breakc=False):
    """Compile and run KERN in directory D: {"class", "detail", "configs"}."""
    cc = OPTS.cc.split()
    cdump = dumpc_config(configs or CONFIGS)
    ktext = write_kernel(kern, d, seed_text)
    nlines = ktext.count("\n")
    extra = ["-fopenmp"] if kern.omp else []
    hflags = ["-O0", "-w", "-c", "harness.c", "-o", "harness.o"]
    if plant:
        hflags.insert(0, "-DTG_PLANT=%d" % plant)
    rc, out, to = run(cc + hflags, OPTS.compile_timeout, d)
    if rc != 0:
        return {"class": "GENBUG", "detail": "harness does not compile: " +
                out[:2000], "configs": {}}
    res = {}
    for name, flags in (configs or CONFIGS):
        obj = "k-%s.o" % name
        libs = [f for f in flags if f.startswith("-l") or f.endswith(".a")]
        flags = [f for f in flags if f not in libs]
        cmd = cc + ["-fplugin=" + OPTS.plugin] + flags + [
                            "-fdiagnostics-plain-output", "-c", "kern.c",
                            "-o", obj] + extra
        if kern.omp:
            # Threads whatever the sizes (the kernels are small).
            cmd.append("-fplugin-arg-tensorgrad-parallel-min=0")
        if dropc:
            cmd.append("-fplugin-arg-tensorgrad-dump-c=grad.c")
        elif name == cdump:
            if os.path.exists(os.path.join(d, "dumpc.c")):
                os.remove(os.path.join(d, "dumpc.c"))
            cmd.append("-fplugin-arg-tensorgrad-dump-c=dumpc.c")
        rc, out, to = run(cmd, OPTS.compile_timeout, d)
        cls, detail = classify_compile(rc, out, to, nlines)
        if cls:
            res[name] = (cls, detail)
            continue
        if name == cdump and not dropc:
            why = check_dumpc(cc, d, breakc)
            if why:
                res[name] = ("ICE", why)
                continue
        objs = [obj]
        if dropc:
            mut = drop_term(d)
            if mut is None:
                res[name] = ("OK", "no term to drop")
                continue
            rc, out, to = run(cc + flags + ["-w", "-c", "kern.c", "-o",
                                            "fwd.o"], OPTS.compile_timeout, d)
            rc2, out2, to = run(cc + flags + ["-w", "-c", "grad-mut.c", "-o",
                                              "grad.o"],
                                OPTS.compile_timeout, d)
            if rc or rc2:
                return {"class": "GENBUG", "detail": out + out2,
                        "configs": {}}
            objs = ["fwd.o", "grad.o"]
        exe = "./t-%s" % name
        # A sanitizer's run-time library comes with its option.
        san = [f for f in flags if f.startswith("-fsanitize")
               or f == "-fopenmp"]
        rc, out, to = run(cc + san + ["harness.o"] + objs +
                          ["-o", exe] + libs + ["-lm"] + extra,
                          OPTS.compile_timeout, d)
        if rc != 0:
            res[name] = ("ICE", "link failed: " + out[:300])
            continue
        tolx = ["100"] if "-ffast-math" in flags else []
        rc, out, to = run([exe] + tolx, OPTS.run_timeout, d)
        if to:
            res[name] = ("CRASH", "run timeout")
        elif rc < 0:
            res[name] = ("CRASH", "killed by signal %d" % -rc)
        elif "runtime error: " in out:
            res[name] = ("CRASH", "UBSan: " + [
                l for l in out.splitlines() if "runtime error: " in l][0])
        elif rc == 1:
            fails = [l for l in out.splitlines() if l.startswith("FAIL")]
            res[name] = ("WRONG", "; ".join(fails[:3]))
        elif rc != 0:
            res[name] = ("CRASH", "exit status %d: %s" % (rc, out[-200:]))
        else:
            res[name] = ("OK", out.strip().splitlines()[-1] if out.strip()
                         else "")
    classes = [c for c, _ in res.values()]
    order = ["ICE", "CRASH", "WRONG", "REFUSED", "OK"]
    worst = min(classes, key=order.index)
    detail = "; ".join("%s: %s" % (n, dt) for n, (c, dt) in res.items()
                       if c == worst)
    # no-opt reads no forward result back, so it may refuse what the
    # optimizer accepts (an in-place tanh whose derivative needs the value
    # it stored): that is its documented limit, not a failure, when every
    # other configuration agrees.  The other way round is a fault.
    opt = [c for n, (c, _) in res.items() if "no-opt" not in n]
    if opt and "REFUSED" not in opt and any(
            c == "REFUSED" for n, (c, _) in res.items() if "no-opt" in n):
        worst = min(opt, key=order.index)
        detail = "; ".join("%s: %s" % (n, dt) for n, (c, dt) in res.items()
                           if c == worst and "no-opt" not in n)
        detail += "; no-opt refuses"
    elif "REFUSED" in classes and len(set(classes)) > 1 and \
            worst in ("REFUSED", "OK"):
        worst = "ICE"
        detail = "inconsistent: " + ", ".join(
            "%s %s" % (n, c) for n, (c, _) in res.items()) + "; " + "; ".join(
            "%s: %s" % (n, dt) for n, (c, dt) in res.items()
            if c == "REFUSED")
    return {"class": worst, "detail": detail, "configs": res}


def drop_term(d):
    """Write grad-mut.c: the plugin's gradient (grad.c) with the last term
    of its adjoint accumulations removed, of every one that has two (the
    lanes pass prints a statement twice, in blocks of 8 and for the rest,
    and small sizes run only the rest); the first line changed, or None
    when there is none."""
    try:
        text = open(os.path.join(d, "grad.c")).read()
    except OSError:
        return None
    lines = text.split("\n")
    start = [i for i, l in enumerate(lines) if l.startswith("kern_grad (")]
    if not start:
        return None
    first = None
    for i, l in enumerate(lines):
        if i < start[0]:
            continue        # a callee's own gradient, not called
        m = re.match(r"^(\s*d_\w+\[[^]]*\] \+= )(.*);$", l)
        if not m:
            continue
        rhs = m.group(2)
        depth, cut = 0, -1
        for j, ch in enumerate(rhs):
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and rhs[j:j + 3] == " + ":
                cut = j
        if cut > 0:
            lines[i] = m.group(1) + rhs[:cut] + ";"
            first = i if first is None else first
    if first is not None:
        with open(os.path.join(d, "grad-mut.c"), "w") as f:
            f.write("\n".join(lines))
    return first


def one(args):
    """Worker: kernel K of SEED."""
    seed, k, keep = args
    t0 = time.time()
    try:
        kern = tggen.generate(kernel_rng(seed, k), only=OPTS.stages,
                              known=OPTS.known_bugs)
    except Exception:           # a bug of the generator, not the plugin's
        return {"class": "GENBUG", "detail": traceback.format_exc()[-600:],
                "configs": {}, "k": k, "seed": seed, "tags": [],
                "time": time.time() - t0}
    d = tempfile.mkdtemp(prefix="tgfuzz-", dir=OPTS.tmpdir)
    try:
        r = test_kernel(kern, d, "%s:%d" % (seed, k))
    except Exception:
        r = {"class": "GENBUG", "detail": traceback.format_exc()[-600:],
             "configs": {}}
    finally:
        if keep:
            os.makedirs(keep, exist_ok=True)
            for f in ("kern.c", "harness.c"):
                if os.path.exists(os.path.join(d, f)):
                    shutil.copy(os.path.join(d, f), keep)
        shutil.rmtree(d, ignore_errors=True)
    r["k"] = k
    r["seed"] = seed
    r["tags"] = sorted(kern.tags)
    r["time"] = time.time() - t0
    return r


def init_worker(opts):
    global OPTS
    OPTS = opts
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def report(results, elapsed, out=sys.stdout):
    counts = {c: 0 for c in CLASSES + ["GENBUG"]}
    for r in results:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
    n = len(results)
    print("tgfuzz: %d kernels in %.0f s (%.1f kernels/minute)" %
          (n, elapsed, 60.0 * n / max(elapsed, 1e-9)), file=out)
    print("tgfuzz: " + "  ".join("%s %d" % (c, counts[c])
                                 for c in CLASSES + ["GENBUG"]
                                 if c in CLASSES or counts[c]), file=out)
    noopt = sum(1 for r in results if r["detail"].endswith("no-opt refuses"))
    if noopt:
        print("tgfuzz: %d of the OK kernels refused with no-opt only" % noopt,
              file=out)
    checked = skipped = 0
    many = []
    for r in results:
        for n, (c, dt) in r.get("configs", {}).items():
            m = re.search(r"checked (\d+) components, (\d+) skipped", dt)
            if m:
                checked += int(m.group(1))
                skipped += int(m.group(2))
                if int(m.group(2)) * 4 > int(m.group(1)) and \
                        "%s:%d" % (r["seed"], r["k"]) not in many:
                    many.append("%s:%d" % (r["seed"], r["k"]))
    print("tgfuzz: %d gradient components checked, %d skipped at kinks "
          "(%.2f%%)" % (checked, skipped, 100.0 * skipped / max(checked, 1)),
          file=out)
    if many:
        print("tgfuzz: more than a quarter skipped in %s" % " ".join(many),
              file=out)
    tags = {}
    for r in results:
        for t in r["tags"]:
            e = tags.setdefault(t, {c: 0 for c in counts})
            e[r["class"]] += 1
    print("\n%-28s %6s %8s %6s %6s %6s %6s" % ("construct", "kernels",
                                               "refused", "rate", "wrong",
                                               "crash", "ice"), file=out)
    for t in sorted(tags, key=lambda t: (t.startswith("R:"), t)):
        e = tags[t]
        tot = sum(e.values())
        print("%-28s %6d %8d %5.0f%% %6d %6d %6d" %
              (t, tot, e["REFUSED"], 100.0 * e["REFUSED"] / tot, e["WRONG"],
               e["CRASH"], e["ICE"]), file=out)
    msgs = {}
    for r in results:
        if r["class"] == "REFUSED":
            m = re.sub(r"^line \d+: ", "", r["detail"].split("; ")[0]
                       .split(": ", 1)[-1])
            m = re.sub(r"'[^']*'", "'X'", m)
            msgs[m] = msgs.get(m, 0) + 1
    if msgs:
        print("\nrefusals by message:", file=out)
        for m, c in sorted(msgs.items(), key=lambda x: -x[1]):
            print("  %4d  %s" % (c, m), file=out)
    bad = [r for r in results if r["class"] in ("WRONG", "CRASH", "ICE",
                                                "GENBUG")]
    if bad:
        print("\nfailing kernels (reproduce with --seed S --one K --keep DIR,"
              " shrink with --reduce S:K):", file=out)
        for r in sorted(bad, key=lambda r: r["k"]):
            print("  %s %s:%d  %s" % (r["class"], r["seed"], r["k"],
                                      r["detail"][:300]), file=out)
    return counts


def fuzz(opts):
    """Run the kernels, in one temporary directory removed at the end
    (also of workers stopped by the time limit)."""
    base = tempfile.mkdtemp(prefix="tgfuzz-run-", dir=opts.tmpdir)
    opts.tmpdir = base
    try:
        return fuzz_in(opts)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def fuzz_in(opts):
    t0 = time.time()
    work = [(opts.seed, k, None) for k in range(opts.start,
                                                 opts.start + opts.count)]
    results = []
    with multiprocessing.Pool(opts.jobs, init_worker, (opts,),
                              maxtasksperchild=50) as pool:
        for r in pool.imap_unordered(one, work):
            results.append(r)
            if opts.time_limit and time.time() - t0 > opts.time_limit:
                print("tgfuzz: time limit of %g s reached after %d kernels"
                      % (opts.time_limit, len(results)), flush=True)
                pool.terminate()
                break
            if r["class"] in ("WRONG", "CRASH", "ICE", "GENBUG"):
                print("tgfuzz: %s %s:%d %s" % (r["class"], r["seed"], r["k"],
                                             r["detail"][:200]), flush=True)
            if opts.progress and len(results) % opts.progress == 0:
                print("tgfuzz: %d/%d done" % (len(results), opts.count),
                      flush=True)
    counts = report(results, time.time() - t0)
    return 1 if counts["WRONG"] + counts["CRASH"] + counts["ICE"] + \
        counts.get("GENBUG", 0) else 0


def show_one(opts):
    global OPTS
    OPTS = opts
    r = one((opts.seed, opts.one, opts.keep))
    kern = tggen.generate(kernel_rng(opts.seed, opts.one), only=opts.stages,
                          known=opts.known_bugs)
    print(tggen.render(tggen.kernel_text(kern), kern.real))
    print("tags: " + " ".join(r["tags"]))
    for n, (c, dt) in r["configs"].items():
        print("%-10s %-8s %s" % (n, c, dt))
    print("class: %s %s" % (r["class"], r["detail"]))
    return 0 if r["class"] in ("OK", "REFUSED") else 1


# -- reduction ----------------------------------------------------------
def signature_of(r):
    """What must stay the same while reducing: the class and the kind of
    the first failure."""
    dt = r["detail"]
    if r["class"] == "WRONG":
        m = re.search(r"FAIL (\S+?)(\(|\s)", dt)
        return ("WRONG", m.group(1) if m else "")
    if r["class"] == "ICE":
        for key in ("internal compiler error", "internal error",
                    "inconsistent", "timeout", "outside", "died"):
            if key in dt:
                return ("ICE", key)
    return (r["class"], "")


def plan_size(plan):
    seqs = [plan["sink"]] + [q for _, q in plan["stages"]]
    return (len(plan["stages"]), sum(len(q) for q in seqs),
            sum(sum(q) for q in seqs), plan["real"])


def strip(seq):
    while seq and seq[-1] == 0:
        seq = seq[:-1]
    return seq


def shrink_candidates(plan):
    """Smaller plans than PLAN, the most promising first: without a stage;
    double for float; then, in each stage's draws, chunks deleted and
    values lowered."""
    P = tggen.copy_plan
    for i in range(len(plan["stages"])):
        c = P(plan)
        del c["stages"][i]
        if c["stages"]:
            yield c
    if plan["real"]:
        c = P(plan)
        c["real"] = 0
        yield c
    slots = [("sink", None)] + [("stage", i)
                                for i in range(len(plan["stages"]))]
    for size in (8, 4, 2, 1):
        for kind, i in slots:
            seq = plan["sink"] if kind == "sink" else plan["stages"][i][1]
            for j in range(0, len(seq), size):
                new = seq[:j] + seq[j + size:]
                c = P(plan)
                if kind == "sink":
                    c["sink"] = new
                else:
                    c["stages"][i][1] = new
                yield c
    for kind, i in slots:
        seq = plan["sink"] if kind == "sink" else plan["stages"][i][1]
        for j, v in enumerate(seq):
            for w in ([0, v // 2] if v > 1 else [0] if v else []):
                new = seq[:j] + [w] + seq[j + 1:]
                c = P(plan)
                if kind == "sink":
                    c["sink"] = new
                else:
                    c["stages"][i][1] = new
                yield c


def reduce_kernel(opts):
    """Shrink the failing kernel S:K: greedy over the plan (drop stages,
    then delete and lower the draws of each stage), keeping a candidate
    when it fails the same way (signature_of) with the configurations
    that failed."""
    global OPTS
    OPTS = opts
    seed, k = opts.reduce.split(":") if ":" in opts.reduce else \
        (str(opts.seed), opts.reduce)
    k = int(k)
    kern = tggen.generate(kernel_rng(seed, k), only=OPTS.stages,
                              known=OPTS.known_bugs)
    d = tempfile.mkdtemp(prefix="tgfuzz-red-", dir=opts.tmpdir)
    stext = "%s:%d" % (seed, k)
    try:
        r = test_kernel(kern, d, stext)
        want = signature_of(r)
        if want[0] in ("OK", "REFUSED"):
            print("tgfuzz: %s:%d is %s, nothing to reduce" % (seed, k,
                                                             r["class"]))
            return 0
        cfgs = [c for c in CONFIGS if r["configs"].get(c[0], ("",))[0] ==
                want[0]] or CONFIGS
        if want == ("ICE", "inconsistent"):
            cfgs = CONFIGS
        best = tggen.copy_plan(kern.plan)
        print("tgfuzz: reducing %s:%d (%s %s), %d stages" %
              (seed, k, want[0], want[1], len(best["stages"])), flush=True)
        tries = 0
        deadline = time.time() + opts.reduce_time
        improved = True
        while improved and time.time() < deadline:
            improved = False
            for cand in shrink_candidates(best):
                if time.time() > deadline:
                    break
                tries += 1
                kk = tggen.generate(plan=cand, known=opts.known_bugs)
                norm = kk.plan
                for st in norm["stages"]:
                    st[1] = strip(st[1])
                norm["sink"] = strip(norm["sink"])
                if plan_size(norm) >= plan_size(best):
                    continue
                rr = test_kernel(kk, d, stext, cfgs)
                if signature_of(rr) == want:
                    best = tggen.copy_plan(norm)
                    improved = True
                    break
        kk = tggen.generate(plan=tggen.copy_plan(best),
                            known=opts.known_bugs)
        rr = test_kernel(kk, d, stext, cfgs)
        print("tgfuzz: reduced in %d tries to %d stages: %s %s" %
              (tries, len(best["stages"]), rr["class"], rr["detail"][:400]))
        print("tgfuzz: plan %r" % (best,))
        print(tggen.render(tggen.kernel_text(kk), kk.real))
        if opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            for f in ("kern.c", "harness.c"):
                shutil.copy(os.path.join(d, f), opts.keep)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1


# -- self-test -----------------------------------------------------------
SELF_KERNELS = [
    # (name, choice stream or None for a generated one, plant)
]


def self_kernel(real, opt=False):
    """A fixed kernel: y[i] = a*x[i]*w[i] + sin(x[i]), d_x has two terms;
    OPT adds an optional input, + (b ? b[i] : 0)."""
    k = tggen.Kernel()
    k.real = real
    k.params = [{"kind": "int", "name": "n", "v": 5},
                {"kind": "scal", "name": "a", "lo": 0.5, "hi": 1.5, "n": 1},
                {"kind": "in", "name": "x", "n": 5, "lo": -1, "hi": 1},
                {"kind": "in", "name": "w", "n": 5, "lo": 0.5, "hi": 2},
                {"kind": "out", "name": "y", "n": 5}]
    k.body = ["  for (int i = 0; i < n; i++)",
              "    y[i] = a * x[i] * w[i] + sin$(x[i]);"]
    if opt:
        k.params.insert(4, {"kind": "in", "name": "b", "n": 5, "lo": -1,
                            "hi": 1, "opt": True})
        k.body[1] = "    y[i] = a * x[i] * w[i] + sin$(x[i]) + " \
            "(b ? b[i] : 0.0$);"
    k.tags = {"self-test"}
    return k


def self_test(opts):
    global OPTS
    OPTS = opts
    d = tempfile.mkdtemp(prefix="tgfuzz-self-", dir=opts.tmpdir)
    bad = 0
    cfg = [CONFIGS[1]]
    cases = [("honest gradient passes", 0, False, "OK"),
             ("one component scaled by 1.001 is caught", 1, False, "WRONG"),
             ("= for += is caught", 2, False, "WRONG"),
             ("output adjoint modified is caught", 3, False, "WRONG"),
             ("dropped term is caught", 0, True, "WRONG"),
             ("dump-c that does not compile is caught", 0, False, "ICE"),
             ("optional input, honest gradient passes", 0, False, "OK"),
             ("optional input NULL, its shadow written, is caught", 4,
              False, "WRONG")]
    try:
        for real in ("double", "float"):
            for what, plant, drop, want in cases:
                if real == "float" and plant == 1:
                    continue      # 1.001 is below the float tolerance
                kern = self_kernel(real, "optional" in what)
                r = test_kernel(kern, d, "self", cfg, plant, drop,
                                want == "ICE")
                ok = r["class"] == want and (want != "ICE" or "dump-c" in
                                             r["detail"])
                bad += not ok
                print("%s: self-test %s (%s): %s %s" %
                      ("PASS" if ok else "FAIL", what, real, r["class"],
                       r["detail"][:200]))
        # generated kernels: the planted 1.001 on double kernels, = for +=
        # and the output adjoint on any that compile, a dropped term
        # the plants on the first SELF_COUNT kernels; dropped terms until
        # five kernels had one (or 60 were drawn): one sample is too few
        # for "most"
        drops = {True: 0, False: 0}
        k = -1
        while True:
            k += 1
            if k >= opts.self_count and (drops[True] + drops[False] >= 5
                                         or k >= 60):
                break
            kern = tggen.generate(kernel_rng("self", k))
            base = test_kernel(kern, d, "self:%d" % k, cfg)
            if base["class"] != "OK":
                continue
            for plant in (1, 2, 3):
                if k >= opts.self_count:
                    break
                if plant == 1 and kern.real == "float":
                    continue
                if plant == 2 and not any(p["kind"] in ("in", "scal")
                                          for p in kern.params):
                    continue
                if plant == 3 and not any(p["kind"] == "out"
                                          for p in kern.params):
                    continue
                r = test_kernel(kern, d, "self:%d" % k, cfg, plant)
                ok = r["class"] == "WRONG"
                bad += not ok
                print("%s: self-test plant %d on generated kernel self:%d: %s"
                      % ("PASS" if ok else "FAIL", plant, k, r["class"]))
            r = test_kernel(kern, d, "self:%d" % k, cfg, 0, True)
            if r["configs"].get(cfg[0][0], ("", ""))[1] == "no term to drop":
                continue
            # a dropped term can be zero at the sizes drawn (a recurrence's
            # carried adjoint over two steps): most, not all, must be caught
            ok = r["class"] == "WRONG"
            drops[ok] += 1
            print("%s: self-test dropped term on generated kernel self:%d: %s"
                  " %s" % ("PASS" if ok else "NOTE", k, r["class"],
                           r["detail"][:200]))
        ok = drops[True] >= 0.8 * (drops[True] + drops[False])
        bad += not ok
        print("%s: self-test dropped terms caught in %d of %d generated kernels"
              % ("PASS" if ok else "FAIL", drops[True],
                 drops[True] + drops[False]))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("tgfuzz: self-test %s" % ("passed" if not bad else
                                    "FAILED (%d)" % bad))
    return 1 if bad else 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--plugin", default=os.environ.get(
        "TG_PLUGIN", os.path.join(here, "..", "..", "plugin", ".libs",
                                  "tensorgrad.so")))
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--one", type=int)
    ap.add_argument("--keep")
    ap.add_argument("--reduce")
    ap.add_argument("--reduce-time", type=float, default=600)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--self-count", type=int, default=6)
    ap.add_argument("--compile-timeout", type=float, default=60)
    ap.add_argument("--run-timeout", type=float, default=20)
    ap.add_argument("--tmpdir", default=None)
    ap.add_argument("--progress", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=0,
                    help="stop after this many seconds (the kernels done"
                    " so far are reported)")
    ap.add_argument("--configs", help="the configurations, comma-separated"
                    " (default O0,O2,O3,O2-no-opt; also " +
                    ",".join(n for n, _ in MORE_CONFIGS) + ")")
    ap.add_argument("--stages", help="only these stage kinds, comma-"
                    "separated (also R:kind); reproduce with the same list")
    ap.add_argument("--known-bugs", action="store_true",
                    help="also generate the variations known to give a"
                    " wrong gradient today (tggen.Gen.KNOWN_WRONG);"
                    " reproduce with the same flag")
    opts = ap.parse_args()
    if opts.configs:
        known = dict(CONFIGS + MORE_CONFIGS)
        names = opts.configs.split(",")
        if any(n not in known for n in names):
            print("tgfuzz: unknown configuration in %s; known: %s" %
                  (opts.configs, " ".join(known)), file=sys.stderr)
            return 2
        CONFIGS[:] = [(n, known[n]) for n in names]
    if opts.stages:
        opts.stages = opts.stages.split(",")
        bad = [s for s in opts.stages if s not in tggen.stage_kinds()]
        if bad:
            print("tgfuzz: unknown stage kind %s; known: %s" %
                  (", ".join(bad), " ".join(tggen.stage_kinds())),
                  file=sys.stderr)
            return 2
    opts.plugin = os.path.abspath(opts.plugin)
    if not os.path.exists(opts.plugin):
        print("tgfuzz: no plugin at %s (--plugin)" % opts.plugin,
              file=sys.stderr)
        return 2
    if opts.self_test:
        return self_test(opts)
    if opts.reduce:
        return reduce_kernel(opts)
    if opts.one is not None:
        return show_one(opts)
    return fuzz(opts)


if __name__ == "__main__":
    sys.exit(main())
