## bench/local.mk -- the gradient benchmark (bench/README), included from
## the top Makefile.am.
##
##   make bench        build every kernel with the plugin just built, at
##                     -O2 and -O3, and print the timing table
##   make bench-check  the self-test: hand-written backwards (and the
##                     generated gradients that build) against finite
##                     differences; fails if a hand-written one is wrong
##   make bench-parallel
##                     dense, conv2d, layernorm and attention with
##                     -fopenmp: forward, generated and hand-written
##                     gradients on 1 and 2 threads
##   make bench-peers  dense, conv2d, MLP, softmax, tanh chain, RNN, layer
##                     norm and attention against PyTorch (bench/peers.py)
##                     when python3 can import torch, 1 and 2 threads, at
##                     -O3 -march=native and -O3: tensorgrad/PyTorch for
##                     the training step and for the gradient alone
##   make bench-winograd
##                     conv2d's convolution and gradient by libtensorgrad's
##                     Winograd F(2x2, 3x3) on the CBLAS (what the option
##                     winograd calls; bench/conv2d_winograd.c): checked
##                     against the direct form, then timed on one thread
##
## make bench BENCH_CFLAGS=-march=native \
##   BENCH_PLUGIN_FLAGS=-fplugin-arg-tensorgrad-vector-math
##                     the same with more flags for every kernel and
##                     for the plugin's builds (bench/build.sh)
##
## Both always rebuild the kernels (a few seconds), so the table reflects
## the current plugin.  A kernel the plugin rejects is a table row, not a
## make failure.  Outputs go to bench-build/ in the build directory (not
## under bench/, which dist-hook copies whole).

BENCH_OUT = bench-build
BENCH_PLUGIN = $(abs_top_builddir)/plugin/.libs/tensorgrad.so
BENCH_BUILD = CC='$(CC)' CBLAS_LIBS='$(CBLAS_LIBS)' \
	BENCH_CFLAGS='$(BENCH_CFLAGS)' BENCH_PLUGIN_FLAGS='$(BENCH_PLUGIN_FLAGS)' \
	$(SHELL) $(srcdir)/bench/build.sh \
	$(srcdir)/bench $(BENCH_OUT) $(BENCH_PLUGIN)

# One thread everywhere: the CBLAS of the blas variant too.
bench: plugin/tensorgrad.la
	$(BENCH_BUILD)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
	./$(BENCH_OUT)/tg-bench --dir $(BENCH_OUT) \
	  --flags "`cat $(BENCH_OUT)/flags`" --plugin $(BENCH_PLUGIN)

bench-check: plugin/tensorgrad.la
	$(BENCH_BUILD)
	./$(BENCH_OUT)/tg-bench --dir $(BENCH_OUT) --check

bench-parallel: plugin/tensorgrad.la
	CC='$(CC)' $(SHELL) $(srcdir)/bench/parallel.sh $(srcdir)/bench \
	  $(BENCH_OUT)/parallel $(BENCH_PLUGIN)
	./$(BENCH_OUT)/parallel/tg-bench-parallel

bench-peers: plugin/tensorgrad.la lib/runtime/libtensorgrad.la
	@if command -v python3 >/dev/null 2>&1; then \
	  python3 -B $(srcdir)/bench/peers.py --srcdir $(srcdir)/bench \
	    --out $(BENCH_OUT)/peers --plugin $(BENCH_PLUGIN) --cc='$(CC)' \
	    --cblas-libs='$(CBLAS_LIBS)' \
	    --tg-libs='-L$(abs_top_builddir)/lib/runtime/.libs -Wl,-rpath,$(abs_top_builddir)/lib/runtime/.libs -ltensorgrad'; \
	else \
	  echo "bench-peers: skipped: no python3"; \
	fi

bench-winograd: lib/runtime/libtensorgrad.la
	@if test -n '$(CBLAS_LIBS)'; then \
	  mkdir -p $(BENCH_OUT) && \
	  $(CC) -O2 -std=gnu11 -I$(srcdir)/include \
	    -o $(BENCH_OUT)/conv2d-winograd $(srcdir)/bench/conv2d_winograd.c \
	    -L$(abs_top_builddir)/lib/runtime/.libs \
	    -Wl,-rpath,$(abs_top_builddir)/lib/runtime/.libs -ltensorgrad \
	    $(CBLAS_LIBS) -lm && \
	  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
	    ./$(BENCH_OUT)/conv2d-winograd; \
	else \
	  echo "bench-winograd: skipped: configure found no CBLAS"; \
	fi

clean-local: clean-bench
clean-bench:
	-rm -rf $(BENCH_OUT)

.PHONY: bench bench-check bench-parallel bench-peers bench-winograd clean-bench
