/* gcc-common.h -- every GCC header the plugin needs, in the order GCC 12
   requires (gcc-plugin.h first; tree.h, then the C front end's headers,
   before anything that brings in diagnostic-core.h).  Other plugin files
   include only this one.

   The C and the C++ front end's headers cannot be included together
   (both define the declarator kinds, char_type_p, ...).  The one file
   that talks to the C++ front end, cxx.cc, defines TG_CXX_FRONT_END
   first and gets cp/cp-tree.h instead of c-tree.h; every function of
   cc1plus it calls is declared weak there, so that the plugin still
   loads in cc1 and lto1.  */

#ifndef TG_GCC_COMMON_H
#define TG_GCC_COMMON_H

#include "gcc-plugin.h"
#include "tree.h"
#ifdef TG_CXX_FRONT_END
#include "cp/cp-tree.h"
#include "cp/name-lookup.h"
#else
#include "c-family/c-common.h"
#include "c-tree.h"
#endif
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "tree-pass.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-fold.h"
#include "gimple-pretty-print.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-iterator.h"
#include "tree-inline.h"
#include "cfgexpand.h"
#include "internal-fn.h"
#include "tree-cfg.h"
#include "tree-ssa.h"
#include "ssa.h"
#include "tree-dfa.h"
#include "tree-into-ssa.h"
#include "cgraph.h"
#include "cfgloop.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-ssa-loop-ivopts.h"
#include "tree-scalar-evolution.h"
#include "tree-chrec.h"
#include "dominance.h"
#include "cfganal.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "diagnostic.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "varasm.h"
#include "target.h"
#include "langhooks.h"
#include "debug.h"
#include "builtins.h"
#include "dumpfile.h"
#include "print-tree.h"
#include "toplev.h"
#include "opts.h"
#include "intl.h"

/* lib/ is C: its headers need C linkage.  */
extern "C" {
#include "ir/te.h"
#include "ad/ad.h"
#include "ir/index.h"
#include "passes/passes.h"
#include "passes/pipeline.h"
#include "back/cgen.h"
#include "back/lower.h"
}

#endif /* TG_GCC_COMMON_H */
