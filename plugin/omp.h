/* omp.h -- OpenMP directives in a kernel: the serial twin the pass lifts
   instead of the kernel, whose loops GCC outlines (omp.cc).  */

#ifndef TG_OMP_H
#define TG_OMP_H

#include "gcc-common.h"

/* Before the C front end genericizes kernel FNDECL: when its body holds
   OpenMP directives, report those a kernel may not use (at each
   directive), or make its serial twin.  */
void omp_pre_genericize (tree fndecl);

/* Is kernel FNDECL one whose directives were refused, or which a twin
   stands for?  The pass does not lift it.  */
bool omp_kernel_skipped (tree fndecl);

/* The kernel that twin DECL stands for, or NULL when DECL is no twin.  */
tree omp_twin_kernel (tree decl);

/* Is VAR the counter of a loop of a twin that was a worksharing loop of
   a parallel region?  */
bool omp_parallel_var (tree var);

/* The location of the parallel region whose body is nothing but the
   worksharing loop counted by VAR (a twin's outermost counter of that
   loop), or UNKNOWN_LOCATION.  */
location_t omp_sole_region (tree var);

/* Kernel KERNEL's parallel region at LOC (omp_sole_region) is to be a
   call of HELPER, with the kernel's parameters (forward.cc, when the
   pass has lifted the twin; forward_regions when it reaches the
   kernel).  */
void omp_replace_region (tree kernel, location_t loc, tree helper);

/* The regions of KERNEL to replace: a TREE_LIST of TREE_PURPOSE the
   helper, TREE_VALUE the region's location (an INTEGER_CST); NULL when
   none.  */
tree omp_region_calls (tree kernel);

/* Twin DECL has been lifted: it is needed no more, and the call graph
   drops it (no code is emitted for it).  */
void omp_twin_done (tree decl);

/* GC roots of the twins.  */
extern const struct ggc_root_tab omp_gc_roots[];

#endif /* TG_OMP_H */
