/* gcc-common.h -- every GCC header the plugin needs, in the order GCC 12
   requires (gcc-plugin.h first; tree.h, then the C front end's headers,
   before anything that brings in diagnostic-core.h).  Other plugin files
   include only this one.  */

#ifndef TG_GCC_COMMON_H
#define TG_GCC_COMMON_H

#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-tree.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "tree-pass.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-fold.h"
#include "gimple-pretty-print.h"
#include "gimplify.h"
#include "tree-iterator.h"
#include "cfgexpand.h"
#include "internal-fn.h"
#include "tree-cfg.h"
#include "tree-ssa.h"
#include "ssa.h"
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
#include "fold-const.h"
#include "stor-layout.h"
#include "langhooks.h"
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
