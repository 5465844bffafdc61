/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-3.c was
   compiled, under other names so that both gradients can be linked.  */
#define dense_grad dense_grad_c
#define normalize_grad normalize_grad_c
#define dot_grad dot_grad_c
#include "dump-c-3.gen.c"
