/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */
/* The shape of the gradients of attention-1.c's kernels (which that test
   checks, also without the optimizer): what the dump says the passes did
   to them, with no-tiled (tiled, the scores' products run whole, on
   T x T temporaries: attention-1.c checks those gradients).  */

#include "attention-1.c"

/* The row maximum, which the lifter lifts for each loop that reads it,
   and the scores' sums hoisted out of it are computed once.  */
/* { dg-final { scan-tensorgrad-dump "dedupe: mx, computed again the same way, is read from mx" } } */
/* { dg-final { scan-tensorgrad-dump "dedupe: t\[0-9\]+, computed again the same way, is read from t\[0-9\]+" } } */

/* The gradients work head by head, as an expert's backward does: one
   loop nest over the rows (b, t, h), no other, and every temporary one
   row long (T or hs elements: no size is a product).  */
/* { dg-final { scan-tensorgrad-backward "stage 1: for \\(fused\\) b < B, t < T, h < NH:" } } */
/* Each row's adjoint of the weights is a dot product with a value row
   (head dimension innermost, schedule.c), as the expert's is, though
   the positions u <= t are a triangle.  */
/* { dg-final { scan-tensorgrad-backward "for u < 1 \\+ t, i < C / NH: e_p\\\[u\\\] \\+= qkv\\\[" } } */
/* { dg-final { scan-tensorgrad-backward "for u < 1 \\+ t, i < hs: e_p\\\[u\\\] \\+= v\\\[" } } */
/* { dg-final { scan-tensorgrad-backward-not "\n  stage 2:" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*\\*" } } */
/* The causal kernels' gradients (attention, in llm.c's form with
   p[u] = u <= t ? p[u] / z : 0 over the whole row, and attention_d with
   1 / z taken once) in the expert's shape, two row passes over u <= t
   reading the stored probabilities, d_s[u] = y[u] (g[u] - sum_u' y[u']
   g[u']): no exponential, causal maximum or score computed again.
     cancel    the maximum gets no adjoint (the select's arm is looked at
               over u <= t, where it is picked), nor do the unscaled
               scores only the maximum reads;
     reuse     e[u] / z is p[u] where u <= t, also as (1 / z) * e[u];
               e[u] and exp (s[u] - mx) are p[u] * z;
     bounds    the adjoint loops guarded by u <= t run to t + 1;
     rescale   the adjoints divided by z are kept times z.  */
/* { dg-final { scan-tensorgrad-dump-times "cancel: mx gets no adjoint" 2 } } */
/* { dg-final { scan-tensorgrad-dump "cancel: t\[0-9\]+ gets no adjoint: only what gets none reads it" } } */
/* { dg-final { scan-tensorgrad-dump-times "bounds: the loop over u runs to 1 \\+ t, where its statements run" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "rescale: d_z holds z times its adjoint" 2 } } */
/* { dg-final { scan-tensorgrad-backward-not "tensor p\\.v1:" } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(sc\\\[" } } */
/* { dg-final { scan-tensorgrad-backward-not "max \\(u < 1 \\+ t" } } */
