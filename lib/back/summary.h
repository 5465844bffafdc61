/* summary.h -- a synthesized gradient in figures: what the plugin's
   optimization remark (-fopt-info) says of it.

   From the programs and the lowering, after the pipeline's last pass:
       synthesized gradient 'f_grad': 2 loop nests, 1 fused, 1 reused,
       4096 bytes of temporaries  */

#ifndef TG_SUMMARY_H
#define TG_SUMMARY_H

#include "back/lower.h"

typedef struct te_summary
{
  int nests;        /* the gradient's loop nests as emitted: a stage with
                       loops is one (each statement of a TE_LW_EACH stage
                       one), a statement outside loops with loops of its
                       own one; calls none */
  int fused;        /* elementwise temporaries of the forward substituted
                       into their readers ('fuse:' notes), plus loop nests
                       of the gradient run inside another one ('rows: N
                       loop nests run as one' counts N - 1) */
  int reused;       /* values of the gradient read from what the forward
                       stored instead of computed ('reuse:' notes) */
  const char *temp_bytes; /* the bytes of the local arrays the gradient
                       allocates (one-element ones, kept in registers,
                       aside): a number, or an expression of the integer
                       parameters ("n * 8"); in BWD's context */
} te_summary;

/* Fill S for BWD, the gradient of FWD (both as the pipeline left them),
   lowered as LW.  */
void te_summarize (const te_program *fwd, const te_program *bwd,
                   const te_lowered *lw, te_summary *s);

#endif /* TG_SUMMARY_H */
