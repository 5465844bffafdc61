/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-optional-1.c
   was compiled, under other names so that both gradients can be linked.  */
#define layernorm_grad layernorm_grad_c
#define conv1d_f_grad conv1d_f_grad_c
#include "dump-c-optional-1.gen.c"
