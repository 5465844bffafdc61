/* The C that -fplugin-arg-tensorgrad-dump-c wrote while blas-dump-c-2.c
   was compiled with -fplugin-arg-tensorgrad-blas, under other names so
   that both gradients can be linked.  */
#define mix_grad mix_grad_c
#define lin_grad lin_grad_c
#include "blas-dump-c-2.gen.c"
