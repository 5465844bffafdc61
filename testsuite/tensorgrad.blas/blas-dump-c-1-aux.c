/* The C that -fplugin-arg-tensorgrad-dump-c wrote while blas-dump-c-1.c
   was compiled with -fplugin-arg-tensorgrad-blas, under another name so
   that both gradients can be linked.  */
#define bmm_grad bmm_grad_c
#include "blas-dump-c-1.gen.c"
