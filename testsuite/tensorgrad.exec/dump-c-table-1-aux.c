/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-table-1.c
   was compiled, under other names so that both gradients can be
   linked.  */
#define taps_grad taps_grad_c
#define scaled_grad scaled_grad_c
#include "dump-c-table-1.gen.c"
