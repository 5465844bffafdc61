#!/usr/bin/env python3
"""peers.py -- make bench-peers: tensorgrad's kernels against PyTorch.

    python3 -B peers.py --srcdir SRC --out DIR --plugin SO
                        [--cc CC] [--cblas-libs LIBS] [--tg-libs LIBS]
                        [--kernels K,K]

For each kernel of bench/ (the same C files and shapes as make bench) it
times, in milliseconds per call, the training step (the forward, then
the gradient) and the gradient alone:

  tensorgrad  K.c with the plugin, loaded with ctypes: the kernel and
              its K_grad.  "loops" is the plugin's default; "blas" adds
              -fplugin-arg-tensorgrad-blas (counted where the object
              then calls the CBLAS) and "blasfwd" has
              -fplugin-arg-tensorgrad-blas-forward (counted where a nest
              of the kernel became a call; an OpenMP kernel's parallel
              region whose loop is a product becomes one).
              "tiledfwd" has -fplugin-arg-tensorgrad-tiled-forward and
              links no CBLAS: the same nests run as the plugin's tiled
              product (counted where a nest became a call; in place of
              an OpenMP kernel's region, on the threads).  Every
              variant is built with -fopenmp.  Each
              variant but loops also has the options a user after
              speed adds: -fplugin-arg-tensorgrad-vector-math (where
              the target has libmvec), -fplugin-arg-tensorgrad-target-
              clones (on x86_64) and, but tiledfwd,
              -fplugin-arg-tensorgrad-parallel (every gradient nest
              that can runs on the threads, and blas-forward's and
              tiled-forward's calls); "tuned" is loops with
              just those.  blasfwd and tiledfwd, which change the
              kernel's results, also have -fplugin-arg-tensorgrad-
              vector-forward (the kernel's own sums reassociated, its
              math calls libmvec's); "vecfwd" is tuned with it, and
              "blasvec" blas with it (counted where it calls the
              CBLAS), "tiledpar" tiledfwd with
              -fplugin-arg-tensorgrad-parallel (the tiled products of
              a kernel without pragmas on the threads too, the
              gradient's and the forward's); given --tg-libs (how to link
              libtensorgrad), blasfwd, tiledfwd and tiledpar also have
              -fplugin-arg-tensorgrad-keep-products (a product into a
              local array kept by the forward for the gradient), and
              those and blas and blasvec -fplugin-arg-tensorgrad-winograd
              (a 3x3 convolution by libtensorgrad's Winograd F(2x2,
              3x3), its products the CBLAS's or, in tiledfwd and
              tiledpar, the tiled product's: still no CBLAS).  The
              tensorgrad column is the
              fastest training step of blasfwd, blas, blasvec (the
              CBLAS), vecfwd and tuned, else loops; beside it the
              figures without a library ("nolib"): the fastest step of
              tiledfwd, tiledpar, vecfwd, tuned and loops
              (a user picks the options for the threads they have),
              and the forward alone of each (with the loops'
              forward, "loops", beside the nolib one).  Each column
              names the variant it shows.
  hand        the forward without the plugin and bench/K_ref.c, the
              hand-written backward (make bench's gen/hand ratio)
  PyTorch     the same mathematics written with torch ops as a PyTorch
              user would (F.conv2d, torch.softmax, F.layer_norm,
              F.cross_entropy, a Python loop of tanh steps for the RNN,
              masked softmax attention), forward then backward with the
              output adjoints make bench uses; "grad" times only the
              backward of a graph a forward built untimed.

Each side runs in a process of its own, at one and two threads
(OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, torch.set_num_threads; the
tensorgrad kernels are built with -fopenmp, so those whose forwards
carry "#pragma omp parallel for" run forward and gradient on the
threads; the others run on one), with glibc malloc told to keep freed
memory (MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_ below, for both
sides), at -O3 -march=native and at make bench's portable flags (-O3,
no -march).  Each process also measures the machine's peak as the BLAS
sees it: cblas_dgemm GFLOP/s (1024^3), and PyTorch's torch.mm in double.

Before timing, the PyTorch process runs tensorgrad's loop gradient on
the same inputs and prints the largest difference of the input
gradients relative to PyTorch's largest (reldiff): the two columns
compute the same thing.

Without python3-torch the PyTorch columns say so and the rest is
printed.  Times: 20 warm-up calls (fewer where they take over 0.25 s,
at least one), then the median of up to 9 samples (at least 3, fewer
when a sample takes long); calls under 2 ms are batched per sample.
"""

import argparse
import concurrent.futures
import ctypes
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

IN, OUT = 0, 1

# glibc malloc for both sides: never give freed memory back (trim) and
# serve blocks up to 32 MB (the largest mmap threshold glibc accepts on
# 64-bit) from the heap, so a freed tensor's memory is reused instead of
# unmapped and faulted in again.
MALLOC_ENV = {"MALLOC_TRIM_THRESHOLD_": str(1 << 40),
              "MALLOC_MMAP_THRESHOLD_": str(32 << 20),
              "MALLOC_TOP_PAD_": str(64 << 20)}


# ---- The kernels: bench/driver.c's shapes and argument lists. ----

class Spec:
    """A kernel: its parameters in order (('int', v), ('float', name, v),
    ('arr', name), ('idx',)), its arrays {name: (len, role, lo, hi)},
    the index array (len, max), whether it returns a double, and the
    PyTorch version (torch_fn (T, spec) -> list of (name, tensor) outputs,
    or [('ret', loss)])."""

    def __init__(self, name, shape, params, arrays, idx=None, ret=False,
                 torch_fn=None, mask=None):
        self.name, self.shape, self.params = name, shape, params
        self.arrays, self.idx, self.ret = arrays, idx, ret
        self.torch_fn, self.mask = torch_fn, mask

    def dim(self, i):
        return [p[1] for p in self.params if p[0] == "int"][i]


def t_dense(T, s):
    n, k, m = s.dim(0), s.dim(1), s.dim(2)
    return [("y", (T["x"].view(n, k) @ T["w"].view(k, m) + T["b"]).view(-1))]


def t_conv2d(T, s):
    import torch.nn.functional as F
    nb, c, h, w, f = (s.dim(i) for i in range(5))
    y = F.conv2d(T["x"].view(nb, c, h, w), T["wt"].view(f, c, 3, 3), T["b"],
                 padding=1)
    return [("y", y.reshape(-1))]


def t_softmax(T, s):
    import torch
    n, m = s.dim(0), s.dim(1)
    return [("y", torch.softmax(T["x"].view(n, m), 1).reshape(-1))]


def t_layernorm(T, s):
    import torch.nn.functional as F
    n, m = s.dim(0), s.dim(1)
    y = F.layer_norm(T["x"].view(n, m), (m,), T["gamma"], T["beta"], 1e-5)
    return [("y", y.reshape(-1))]


def t_tanhchain(T, s):
    import torch
    return [("y", torch.tanh(torch.sigmoid(T["a"] * T["x"] + T["b"])
                             * T["c"]))]


def t_mlp(T, s):
    import torch
    import torch.nn.functional as F
    n, d, h, c = (s.dim(i) for i in range(4))
    hid = torch.tanh(T["x"].view(n, d) @ T["w1"].view(d, h) + T["b1"])
    z = hid @ T["w2"].view(h, c) + T["b2"]
    return [("ret", F.cross_entropy(z, T["label"].long()))]


def t_rnn(T, s):
    import torch
    t, H, D = s.dim(0), s.dim(1), s.dim(2)
    W, U = T["W"].view(H, H), T["U"].view(H, D)
    xu = T["x"].view(t, D) @ U.t() + T["b"]
    hs = [T["h0"]]
    for step in range(t):
        hs.append(torch.tanh(W @ hs[-1] + xu[step]))
    return [("h", torch.stack(hs).view(-1))]


def t_attention(T, s):
    import torch
    B, t, C, NH = (s.dim(i) for i in range(4))
    hs = C // NH
    q, k, v = T["qkv"].view(B, t, 3 * C).split(C, dim=2)
    q = q.reshape(B, t, NH, hs).transpose(1, 2)
    k = k.reshape(B, t, NH, hs).transpose(1, 2)
    v = v.reshape(B, t, NH, hs).transpose(1, 2)
    preatt = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
    causal = torch.ones(t, t, dtype=torch.bool).tril()
    att = torch.softmax(preatt.masked_fill(~causal, float("-inf")), -1)
    out = (att @ v).transpose(1, 2).reshape(B, t, C)
    return [("preatt", preatt.reshape(-1)), ("att", att.reshape(-1)),
            ("out", out.reshape(-1))]


def attention_mask(s, name, e):
    """The adjoint of preatt's entries above the diagonal (the kernel
    never writes them) is zero on both sides."""
    t = s.dim(1)
    return name == "preatt" and (e % t) > (e // t) % t


def I(v):
    return ("int", v)


def A(n):
    return ("arr", n)


def kernels():
    ks = []
    n, k, m = 256, 512, 512
    r = 1 / math.sqrt(k)
    ks.append(Spec("dense", "256x512 . 512x512",
                   [I(n), I(k), I(m), A("x"), A("w"), A("b"), A("y")],
                   {"x": (n * k, IN, -1, 1), "w": (k * m, IN, -r, r),
                    "b": (m, IN, -1, 1), "y": (n * m, OUT, 0, 0)},
                   torch_fn=t_dense))
    nb, c, h, w, f = 8, 32, 32, 32, 32
    r = 1 / math.sqrt(9 * c)
    ks.append(Spec("conv2d", "8x32x32x32, 32 3x3",
                   [I(nb), I(c), I(h), I(w), I(f), A("x"), A("wt"), A("b"),
                    A("y")],
                   {"x": (nb * c * h * w, IN, -1, 1),
                    "wt": (f * c * 9, IN, -r, r), "b": (f, IN, -1, 1),
                    "y": (nb * f * h * w, OUT, 0, 0)}, torch_fn=t_conv2d))
    n, m = 256, 1024
    ks.append(Spec("softmax", "256x1024", [I(n), I(m), A("x"), A("y")],
                   {"x": (n * m, IN, -2, 2), "y": (n * m, OUT, 0, 0)},
                   torch_fn=t_softmax))
    ks.append(Spec("layernorm", "256x1024",
                   [I(n), I(m), A("x"), A("gamma"), A("beta"), A("y")],
                   {"x": (n * m, IN, -1, 1), "gamma": (m, IN, 0.5, 1.5),
                    "beta": (m, IN, -1, 1), "y": (n * m, OUT, 0, 0)},
                   torch_fn=t_layernorm))
    n = 1 << 20
    ks.append(Spec("tanhchain", "1<<20",
                   [I(n), ("float", "a", 0.7), ("float", "b", -0.2),
                    ("float", "c", 1.3), A("x"), A("y")],
                   {"x": (n, IN, -2, 2), "y": (n, OUT, 0, 0)},
                   torch_fn=t_tanhchain))
    n, d, h, c = 256, 512, 256, 10
    r1, r2 = 1 / math.sqrt(d), 1 / math.sqrt(h)
    ks.append(Spec("mlp", "256x512-256-10",
                   [I(n), I(d), I(h), I(c), A("x"), A("w1"), A("b1"),
                    A("w2"), A("b2"), ("idx", "label")],
                   {"x": (n * d, IN, -1, 1), "w1": (d * h, IN, -r1, r1),
                    "b1": (h, IN, -0.5, 0.5),
                    "w2": (h * c, IN, -3 * r2, 3 * r2),
                    "b2": (c, IN, -0.5, 0.5)},
                   idx=(n, c), ret=True, torch_fn=t_mlp))
    t, h, d = 64, 256, 128
    rw, ru = 1 / math.sqrt(h), 1 / math.sqrt(d)
    ks.append(Spec("rnn", "T64 H256 D128",
                   [I(t), I(h), I(d), A("W"), A("U"), A("b"), A("x"),
                    A("h0"), A("h")],
                   {"W": (h * h, IN, -rw, rw), "U": (h * d, IN, -ru, ru),
                    "b": (h, IN, -0.5, 0.5), "x": (t * d, IN, -1, 1),
                    "h0": (h, IN, -1, 1), "h": ((t + 1) * h, OUT, 0, 0)},
                   torch_fn=t_rnn))
    b, t, c, nh = 4, 64, 768, 12
    ks.append(Spec("attention", "B4 T64 C768 NH12",
                   [I(b), I(t), I(c), I(nh), A("qkv"), A("preatt"),
                    A("att"), A("out")],
                   {"qkv": (b * t * 3 * c, IN, -1, 1),
                    "preatt": (b * nh * t * t, OUT, 0, 0),
                    "att": (b * nh * t * t, OUT, 0, 0),
                    "out": (b * t * c, OUT, 0, 0)},
                   torch_fn=t_attention, mask=attention_mask))
    return ks


# ---- Timing. ----

def measure(call, setup=None, budget=1.5):
    """Milliseconds per CALL: warm-up calls (20, or as many as 0.25 s
    holds, at least one), then the median of up to 9 samples (at least
    3) within about BUDGET seconds; calls under 2 ms are repeated in a
    batch per sample.  SETUP, when given, runs untimed before each call.
    (One warm-up call was too few: PyTorch's conv2d training step at two
    threads took 8 ms for its first 15 or so calls, 3.7 after.)"""
    start = time.perf_counter()
    for k in range(20):
        if setup:
            setup()
        t0 = time.perf_counter()
        call()
        first = time.perf_counter() - t0
        if t0 + first - start > 0.25:
            break
    batch = 1 if first >= 2e-3 or setup else max(1, int(2e-3 / max(first,
                                                                    1e-6)))
    samples = []
    start = time.perf_counter()
    while len(samples) < 9 and (len(samples) < 3
                                or time.perf_counter() - start < budget):
        if setup:
            setup()
        t0 = time.perf_counter()
        for _ in range(batch):
            call()
        samples.append((time.perf_counter() - t0) / batch)
    return 1e3 * statistics.median(samples)


# ---- Building. ----

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, p.stdout


def first_error(log):
    for line in log.splitlines():
        if "error" in line or "internal compiler" in line:
            return line.split("/")[-1]
    return (log.strip().splitlines() or ["failed"])[0]


def calls_cblas(so):
    rc, out = run(["nm", "-D", "--undefined-only", so])
    return rc == 0 and "cblas_" in out


def build(args, marches):
    """Build every object; return {(march, kernel): {variant: so path or
    'unsupported: ...'}} and the util object's path."""
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, ".gitignore"), "w") as f:
        f.write("*\n")
    cc = args.cc.split()
    libs = args.cblas_libs.split()
    util = os.path.join(args.out, "peers_util.so")
    rc, log = run(cc + ["-O2", "-fPIC", "-shared", "-o", util,
                        os.path.join(args.srcdir, "peers_util.c")]
                  + (["-DPEERS_CBLAS"] + libs if libs else []))
    if rc:
        sys.exit("bench-peers: cannot build peers_util.c:\n" + log)

    probe = os.path.join(args.out, "probe.c")
    with open(probe, "w") as f:
        f.write("__attribute__((differentiable)) void probe (int n, "
                "const float *x, float *y) { for (int i = 0; i < n; i++) "
                "y[i] = 2.0f * x[i]; }\n")
    opts = {"loops": []}
    tfwd = ["-fplugin-arg-tensorgrad-tiled-forward"]
    rc, _ = run(cc + ["-O2", "-fplugin=" + args.plugin] + tfwd
                + ["-c", probe, "-o", probe + ".o"])
    if rc == 0:
        opts["tiledfwd"] = tfwd
    if libs:
        opts["blas"] = ["-fplugin-arg-tensorgrad-blas"]
        fwd = opts["blas"] + ["-fplugin-arg-tensorgrad-blas-forward"]
        rc, _ = run(cc + ["-O2", "-fplugin=" + args.plugin] + fwd
                    + ["-c", probe, "-o", probe + ".o"])
        if rc == 0:
            opts["blasfwd"] = fwd
    # What a user after speed adds to all but loops: libmvec's vector
    # math (where the target has it), the gradients' versions for the
    # x86-64 levels (target-clones), and the option parallel (but
    # tiledfwd, below).
    vm = ["-fplugin-arg-tensorgrad-vector-math"]
    rc, _ = run(cc + ["-O2", "-fplugin=" + args.plugin] + vm
                + ["-c", probe, "-o", probe + ".o"])
    if rc:
        vm = []
    # and versions for the x86-64 levels (where the target is x86_64).
    tc = ["-fplugin-arg-tensorgrad-target-clones"]
    rc, _ = run(cc + ["-O2", "-fplugin=" + args.plugin] + tc
                + ["-c", probe, "-o", probe + ".o"])
    if rc == 0:
        vm = vm + tc
    for v in list(opts):
        if v != "loops":
            opts[v] = opts[v] + vm + (
                [] if v == "tiledfwd"
                else ["-fplugin-arg-tensorgrad-parallel"])
    opts["tuned"] = vm + ["-fplugin-arg-tensorgrad-parallel"]
    # The kernel's own loops vectorized too (its sums reassociated, its
    # math calls libmvec's): with the other options that change the
    # forward's results, and as tuned's variant "vecfwd".
    vf = ["-fplugin-arg-tensorgrad-vector-forward"]
    rc, _ = run(cc + ["-O2", "-fplugin=" + args.plugin] + vf
                + ["-c", probe, "-o", probe + ".o"])
    if rc == 0:
        for v in ("blasfwd", "tiledfwd"):
            if v in opts:
                opts[v] = opts[v] + vf
        opts["vecfwd"] = opts["tuned"] + vf
        if "blas" in opts:
            opts["blasvec"] = opts["blas"] + vf
    # tiledfwd with the option parallel: the tiled products of a kernel
    # without pragmas on the threads too (tiledfwd runs those of an
    # OpenMP kernel's regions there).
    if "tiledfwd" in opts:
        opts["tiledpar"] = opts["tiledfwd"] + [
            "-fplugin-arg-tensorgrad-parallel"]
    # With libtensorgrad at hand (--tg-libs), the forward variants keep
    # the products they compute into local arrays for the gradient.
    keep = ["-fplugin-arg-tensorgrad-keep-products"]
    wino = ["-fplugin-arg-tensorgrad-winograd"]
    if args.tg_libs:
        for v in ("blasfwd", "tiledfwd", "tiledpar"):
            if v in opts:
                opts[v] = opts[v] + keep
        # and a 3x3 convolution as libtensorgrad's Winograd F(2x2, 3x3),
        # on the CBLAS or (tiledfwd, tiledpar) the tiled product.
        for v in ("blas", "blasfwd", "blasvec", "tiledfwd", "tiledpar"):
            if v in opts:
                opts[v] = opts[v] + wino
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for march, mflags in marches:
            for k in args.kernels:
                src = os.path.join(args.srcdir, k + ".c")
                base = ["-O3", "-std=gnu11", "-fopenmp", "-fPIC", "-shared"] \
                    + mflags
                so = os.path.join(args.out, "%s-%s-hand.so" % (k, march))
                jobs[(march, k, "hand")] = (so, pool.submit(
                    run, cc + base + ["-Wno-attributes", "-o", so, src,
                                      os.path.join(args.srcdir, k + "_ref.c"),
                                      "-lm"]))
                for v, extra in opts.items():
                    so = os.path.join(args.out, "%s-%s-%s.so" % (k, march, v))
                    jobs[(march, k, v)] = (so, pool.submit(
                        run, cc + base + ["-fplugin=" + args.plugin] + extra
                        + ["-o", so, src]
                        + (libs if v not in ("tiledfwd", "tiledpar")
                           else [])
                        + (args.tg_libs.split()
                           if keep[0] in extra or wino[0] in extra
                           else []) + ["-lm"]))
    built = {}
    for (march, k, v), (so, fut) in jobs.items():
        rc, log = fut.result()
        cell = built.setdefault((march, k), {})
        if rc:
            if v == "hand":
                sys.exit("bench-peers: %s does not build:\n%s" % (so, log))
            cell[v] = "unsupported: " + first_error(log)
        else:
            cell[v] = so
    # An option applies where the object calls the CBLAS and differs
    # from the variant without it; blas-forward where a nest of the
    # kernel became a call (a <kernel>.blas.N function).
    for cell in built.values():
        for v, base in (("blas", "loops"), ("blasvec", "vecfwd")):
            so = cell.get(v)
            if so and not so.startswith("unsupported") and (
                    not calls_cblas(so) or same_file(so, cell.get(base))):
                cell[v] = "n/a"
        so = cell.get("tuned")
        if so and not so.startswith("unsupported") \
                and same_file(so, cell.get("loops")):
            cell["tuned"] = "n/a"
        for v in ("blasfwd", "tiledfwd", "tiledpar"):
            so = cell.get(v)
            if so and not so.startswith("unsupported") \
                    and not has_blas_helper(so):
                cell[v] = "n/a"
    return built, util


def has_blas_helper(so):
    rc, out = run(["nm", so])
    return rc == 0 and ".blas." in out


def same_file(a, b):
    if not b or b.startswith("unsupported") or b == "n/a":
        return False
    with open(a, "rb") as f, open(b, "rb") as g:
        return f.read() == g.read()


# ---- A kernel's arguments in memory (ctypes). ----

class Inst:
    """SPEC's arrays, shadows, scalars and index array, filled by
    peers_fill; the values live in ctypes buffers (or torch tensors'
    storage, when BUFS maps names to addresses)."""

    def __init__(self, spec, util, alloc):
        self.spec = spec
        self.ptr, self.dptr, self.keep = {}, {}, []
        seed = 1
        for name, (n, role, lo, hi) in spec.arrays.items():
            v, d = alloc(name, n, False), alloc(name, n, True)
            if role == IN:
                util.peers_fill(v, n, lo, hi, seed)
            else:
                util.peers_fill(d, n, -1, 1, seed + 100)
                if spec.mask:
                    arr = ctypes.cast(d, ctypes.POINTER(ctypes.c_float))
                    for e in range(n):
                        if spec.mask(spec, name, e):
                            arr[e] = 0.0
            self.ptr[name], self.dptr[name] = v, d
            seed += 1
        self.scal = {p[1]: p[2] for p in spec.params if p[0] == "float"}
        self.dscal = {p[1]: ctypes.c_float(0) for p in spec.params
                      if p[0] == "float"}
        self.idx = None
        if spec.idx:
            self.idx = alloc("idx", spec.idx[0], False, ctypes.c_int)
            util.peers_fill_int(self.idx, spec.idx[0], spec.idx[1], 77)
        self.d_ret = 1.0

    def args(self, grad):
        a, shadows = [], []
        for p in self.spec.params:
            if p[0] == "int":
                a.append(ctypes.c_int(p[1]))
            elif p[0] == "float":
                a.append(ctypes.c_float(self.scal[p[1]]))
                shadows.append(ctypes.byref(self.dscal[p[1]]))
            elif p[0] == "arr":
                a.append(ctypes.c_void_p(self.ptr[p[1]]))
                shadows.append(ctypes.c_void_p(self.dptr[p[1]]))
            else:
                a.append(ctypes.c_void_p(self.idx))
        if grad:
            a += shadows
            if self.spec.ret:
                a.append(ctypes.c_double(self.d_ret))
        return a


def load_util(path):
    util = ctypes.CDLL(os.path.abspath(path))
    util.peers_fill.restype = None
    util.peers_fill.argtypes = [ctypes.c_void_p, ctypes.c_long,
                                ctypes.c_float, ctypes.c_float,
                                ctypes.c_ulonglong]
    util.peers_fill_int.restype = None
    util.peers_fill_int.argtypes = [ctypes.c_void_p, ctypes.c_long,
                                    ctypes.c_int, ctypes.c_ulonglong]
    return util


def ctypes_alloc(keep):
    def alloc(name, n, shadow, ty=ctypes.c_float):
        buf = (ty * n)()
        keep.append(buf)
        return ctypes.addressof(buf)
    return alloc


def load(so, name, ret):
    lib = ctypes.CDLL(os.path.abspath(so))
    f = getattr(lib, name)
    f.restype = ctypes.c_double if ret else None
    return lib, f


def tg_calls(spec, inst, so, fwd_name, grad_name):
    lib, fwd = load(so, fwd_name, spec.ret)
    _, grad = load(so, grad_name, False)
    grad.restype = None
    fa, ga = inst.args(False), inst.args(True)
    return lib, (lambda: fwd(*fa)), (lambda: grad(*ga))


# ---- The workers: one process per side, thread count and march. ----

def worker_tg(args):
    util = load_util(args.util)
    res = {"peak": None, "kernels": {}}
    if hasattr(util, "peers_dgemm_gflops"):
        util.peers_dgemm_gflops.restype = ctypes.c_double
        res["peak"] = util.peers_dgemm_gflops(1024, 3)
    built = json.loads(args.built)
    for spec in kernels():
        if spec.name not in built:
            continue
        cell, out = built[spec.name], {}
        keep = []
        inst = Inst(spec, util, ctypes_alloc(keep))
        for v, so in cell.items():
            if so.startswith("unsupported") or so == "n/a":
                out[v] = so
                continue
            gname = spec.name + ("_grad_ref" if v == "hand" else "_grad")
            _, fwd, grad = tg_calls(spec, inst, so, spec.name, gname)
            # The forward first: the gradient reads the outputs it left.
            out[v] = {"fwd": measure(fwd), "grad": measure(grad),
                      "step": measure(lambda: (fwd(), grad()))}
        res["kernels"][spec.name] = out
    print(json.dumps(res))


def worker_torch(args):
    try:
        import torch
    except ImportError as e:
        print(json.dumps({"skip": str(e)}))
        return
    torch.set_num_threads(args.threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    util = load_util(args.util)
    a = torch.rand(1024, 1024, dtype=torch.float64)
    b = torch.rand(1024, 1024, dtype=torch.float64)
    torch.mm(a, b)
    best = min(timed(lambda: torch.mm(a, b)) for _ in range(3))
    res = {"peak": 2 * 1024 ** 3 / best * 1e-9, "torch": torch.__version__,
           "kernels": {}}
    built = json.loads(args.built)
    for spec in kernels():
        if spec.name not in built:
            continue
        tensors = {}

        def alloc(name, n, shadow, ty=ctypes.c_float):
            t = torch.zeros(n, dtype=torch.int32 if ty is ctypes.c_int
                            else torch.float32)
            tensors[(name, shadow)] = t
            return t.data_ptr()
        inst = Inst(spec, util, alloc)
        T = {}
        for name, (n, role, lo, hi) in spec.arrays.items():
            t = tensors[(name, False)]
            T[name] = t.requires_grad_(True) if role == IN else t
        for name, v in inst.scal.items():
            T[name] = torch.tensor(v, dtype=torch.float32, requires_grad=True)
        if spec.idx:
            T[spec.params[-1][1]] = tensors[("idx", False)]
        leaves = [T[n] for n, r in spec.arrays.items() if r[1] == IN] \
            + [T[n] for n in inst.scal]

        def forward():
            outs = spec.torch_fn(T, spec)
            return ([o for _, o in outs],
                    [torch.tensor(inst.d_ret, dtype=o.dtype) if n == "ret"
                     else tensors[(n, True)] for n, o in outs])

        def step():
            for x in leaves:
                x.grad = None
            o, g = forward()
            torch.autograd.backward(o, g)
        out = {}
        # The check: tensorgrad's loops on the same inputs.
        so = built[spec.name].get("loops", "")
        if args.check and so and not so.startswith("unsupported"):
            # The gradient reads the outputs the forward left (the ABI).
            _, fwd, grad = tg_calls(spec, inst, so, spec.name,
                                    spec.name + "_grad")
            fwd()
            grad()
            o, g = forward()
            ref = torch.autograd.grad(o, leaves, g)
            worst = 0.0
            names = [n for n, r in spec.arrays.items() if r[1] == IN]
            for name, r in zip(names, ref):
                d = tensors[(name, True)]
                e = float((d - r).abs().max()
                          / max(float(r.abs().max()), 1e-30))
                if os.environ.get("PEERS_DEBUG"):
                    print(spec.name, name, e, file=sys.stderr)
                worst = max(worst, e)
            for name, r in zip(inst.scal, ref[len(names):]):
                d = inst.dscal[name].value
                if os.environ.get("PEERS_DEBUG"):
                    print(spec.name, name, d, float(r), file=sys.stderr)
                worst = max(worst, abs(d - float(r))
                            / max(abs(float(r)), 1e-30))
            out["reldiff"] = worst
        out["step"] = measure(step)
        graph = {}

        def build_graph():
            for x in leaves:
                x.grad = None
            graph["og"] = forward()

        def backward():
            torch.autograd.backward(*graph["og"])
        out["grad"] = measure(backward, setup=build_graph)
        out["fwd"] = measure(lambda: forward())
        res["kernels"][spec.name] = out
    print(json.dumps(res))


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


# ---- The driver. ----

def torch_python():
    """An interpreter that imports torch: this one, or Debian's (where
    apt-get puts python3-torch) when the python3 on PATH is another."""
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run(
                [py, "-c", "import torch"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def spawn(args, side, threads, built, check=False):
    env = dict(os.environ)
    env.update(MALLOC_ENV)
    env.update({"OMP_NUM_THREADS": str(threads),
                "OPENBLAS_NUM_THREADS": str(threads),
                "MKL_NUM_THREADS": str(threads)})
    cmd = [args.python if side == "torch" else sys.executable, "-B",
           os.path.abspath(__file__), "--worker", side,
           "--threads", str(threads), "--util", args.util_so,
           "--built", json.dumps(built)]
    if check:
        cmd.append("--check")
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True)
    lines = p.stdout.strip().splitlines()
    if p.returncode or not lines:
        return {"error": "worker %s exited with %d" % (side, p.returncode)}
    return json.loads(lines[-1])


def ms(x):
    return "%.3g" % x if isinstance(x, float) else x


def ratio(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return "%.2f" % (a / b)
    return "-"


def best_variant(cell, groups=(("blasfwd", "blas", "blasvec", "vecfwd",
                                "tuned"), ("loops",))):
    """The variant of the first group with one measured, the fastest
    training step of that group."""
    for group in groups:
        have = [v for v in group if isinstance(cell.get(v), dict)]
        if have:
            return min(have, key=lambda v: cell[v]["step"])
    return None


def table(title, tg, pt, built):
    print("\n%s" % title)
    print("  dgemm peak (1024^3): CBLAS %s GFLOP/s, torch.mm double %s "
          "GFLOP/s" % ("%.1f" % tg["peak"] if tg.get("peak") else "n/a",
                       "%.1f" % pt["peak"] if pt.get("peak") else "n/a"))
    print("  (nolib: without a library, tiledfwd where a nest of the "
          "kernel became a call, else loops)")
    hdr = ("  %-10s %-8s %-8s | %-30s | %-30s | %-39s | %-14s | %s"
           % ("kernel", "tg", "nolib", "step ms: tg nolib torch",
              "grad ms: tg nolib torch", "fwd ms: tg nolib loops torch",
              "tg/torch s g",
              "nolib/torch s g  tg/hand g  tg/fwd g  reldiff"))
    print(hdr)
    for name, cell in tg["kernels"].items():
        v = best_variant(cell)
        if not v:
            why = cell.get("loops", "unsupported")
            print("  %-10s %s" % (name, why))
            continue
        nl = best_variant(cell, (("tiledfwd", "tiledpar", "vecfwd",
                                  "tuned", "loops"),)) or v
        b, lp, hand = cell[v], cell[nl], cell.get("hand", {})
        p = pt.get("kernels", {}).get(name, {})
        ps, pg = p.get("step", "n/a"), p.get("grad", "n/a")
        lf = cell["loops"].get("fwd", "-") \
            if isinstance(cell.get("loops"), dict) else "-"
        print("  %-10s %-8s %-8s | %8s %8s %8s    | %8s %8s %8s    "
              "| %8s %8s %8s %8s    | %5s %5s"
              "    | %5s %5s        %5s      %5s    %s"
              % (name, v, nl, ms(b["step"]), ms(lp["step"]), ms(ps),
                 ms(b["grad"]), ms(lp["grad"]), ms(pg),
                 ms(b["fwd"]), ms(lp["fwd"]), ms(lf), ms(p.get("fwd", "n/a")),
                 ratio(b["step"], ps), ratio(b["grad"], pg),
                 ratio(lp["step"], ps), ratio(lp["grad"], pg),
                 ratio(b["grad"], hand.get("grad")),
                 ratio(b["grad"], b["fwd"]),
                 "%.1e" % p["reldiff"] if "reldiff" in p else "-"))
    notes = sorted({"%s %s: %s" % (n, v, s) for n, c in built.items()
                    for v, s in c.items()
                    if isinstance(s, str) and s.startswith("unsupported")})
    for n in notes:
        print("  " + n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--srcdir")
    ap.add_argument("--out")
    ap.add_argument("--plugin")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--cblas-libs", default="")
    ap.add_argument("--tg-libs", default="")
    ap.add_argument("--kernels", default="dense,conv2d,mlp,softmax,"
                    "tanhchain,rnn,layernorm,attention")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--marches", default="native,portable")
    ap.add_argument("--worker")
    ap.add_argument("--util")
    ap.add_argument("--built")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.worker:
        # tanhchain's forward keeps three 4 MB arrays on the stack: run
        # on a thread with a large one, as bench/driver.c does.
        threading.stack_size(512 << 20)
        th = threading.Thread(target=worker_tg if args.worker == "tg"
                              else worker_torch, args=(args,))
        th.start()
        th.join()
        return

    args.kernels = args.kernels.split(",")
    flags = {"native": ["-march=native"], "portable": []}
    marches = [(m, flags[m]) for m in args.marches.split(",")]
    print("bench-peers: building %d kernels at -O3 -march=native and -O3 "
          "(portable), -fopenmp ..." % len(args.kernels), flush=True)
    built, args.util_so = build(args, marches)
    args.python = torch_python()
    have_torch = args.python is not None
    if not have_torch:
        print("bench-peers: no python3 here imports torch (apt-get install "
              "python3-torch): PyTorch columns skipped")
    print("malloc: " + " ".join("%s=%s" % kv for kv in MALLOC_ENV.items()))
    rc, ver = run(args.cc.split() + ["-dumpfullversion"])
    la = os.getloadavg()
    print("%s %s; load average %.2f %.2f %.2f" % (args.cc, ver.strip(), *la))
    for threads in (1, 2):
        pt = {}
        if have_torch:
            # PyTorch's numbers do not depend on our -march: one run per
            # thread count, checked against the portable loops.
            cell = {k: built[(marches[-1][0], k)] for k in args.kernels}
            pt = spawn(args, "torch", threads, cell, check=threads == 1)
            if "torch" in pt:
                print("PyTorch %s" % pt["torch"])
        for march, mflags in marches:
            cell = {k: built[(march, k)] for k in args.kernels}
            tg = spawn(args, "tg", threads, cell)
            if "error" in tg:
                print("bench-peers: %s" % tg["error"])
                continue
            table("-O3 %s, %d thread%s" % (" ".join(mflags) or "(no -march)",
                                            threads, "s" if threads > 1
                                            else ""), tg, pt,
                  {k: built[(march, k)] for k in args.kernels})
    la = os.getloadavg()
    print("\nload average after: %.2f %.2f %.2f" % la)


if __name__ == "__main__":
    main()
