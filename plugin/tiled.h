/* tiled.h -- the static function that runs a matrix product without a
   library (tiled.cc; lib/back/tiled.h says what it computes).  */

#ifndef TG_PLUGIN_TILED_H
#define TG_PLUGIN_TILED_H

#include "gcc-common.h"

/* A new static function tensorgrad.tiled.f32 (TYPE TE_F32) or .f64,
   gimplified, with LIKE's optimization and target options (LIKE may be
   NULL): void (long m, long n, long k, T alpha, const T *a, long sai,
   long sap, const T *b, long sbp, long sbj, T *c, long ldc).  The
   caller hands it to the call graph.  */
tree tiled_build (te_type type, tree like);

#endif /* TG_PLUGIN_TILED_H */
