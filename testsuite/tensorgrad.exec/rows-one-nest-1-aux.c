/* The C that -fplugin-arg-tensorgrad-dump-c wrote while rows-one-nest-1.c
   was compiled, under other names so that both gradients can be linked.  */
#define layernorm_grad layernorm_grad_c
#define dense_grad dense_grad_c
#include "rows-one-nest-1.gen.c"
