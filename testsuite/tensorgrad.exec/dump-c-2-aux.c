/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-2.c was
   compiled, under another name so that both gradients can be linked.  */
#define two_red_grad two_red_grad_c
#include "dump-c-2.gen.c"
