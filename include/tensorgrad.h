/* tensorgrad.h -- public header of tensorgrad, a GCC plugin that
   synthesizes reverse-mode gradients, and of its runtime library
   libtensorgrad.

   Including this header is optional: the plugin itself needs nothing
   from it.  It gives

     TG_DIFFERENTIABLE   marks a kernel; always expands to
			 __attribute__((differentiable)).  Without
			 -fplugin=tensorgrad, GCC ignores the attribute
			 with a -Wattributes warning and no <name>_grad
			 is defined.

   and the declarations of libtensorgrad (link with -ltensorgrad).

   The gradient ABI, in short: for a kernel `R f (P1, ..., Pn)' the plugin
   defines `void f_grad (P1, ..., Pn, S1, ..., Sm [, R d_return])' with
   one shadow Si per float or double pointer or scalar parameter, in
   parameter order; input shadows accumulate (the caller zeroes them),
   output shadows hold the incoming adjoint; no two pointer arguments may
   overlap.  See README for the whole contract.  */

#ifndef TENSORGRAD_H
#define TENSORGRAD_H

#define TG_DIFFERENTIABLE __attribute__ ((differentiable))

#ifdef __cplusplus
extern "C" {
#endif

/* The version of libtensorgrad, e.g. "0.1.0".  */
const char *tg_version (void);

#ifdef __cplusplus
}
#endif

#endif /* TENSORGRAD_H */
