/* forward.h -- matrix products of the kernel itself as CBLAS calls
   (-fplugin-arg-tensorgrad-blas-forward) or tiled products
   (-fplugin-arg-tensorgrad-tiled-forward; forward.cc).  */

#ifndef TG_FORWARD_H
#define TG_FORWARD_H

#include "gcc-common.h"

/* Replace each nest of FUN, the body of KERNEL, that computes a stage of
   FWD (KERNEL's program as lifted, a copy made before the pipeline) which
   te_gemm_forward reads as a matrix product by a call of a function the
   emitter makes, which calls the CBLAS, or, when TILED, the tiled
   product of lib/back/tiled.h (no library); say in the dump which did
   and why the others did not.  Returns the TODO flags FUN then needs.  */
unsigned forward_blas (function *fun, tree kernel, te_program *fwd,
                       bool tiled);

#endif /* TG_FORWARD_H */
