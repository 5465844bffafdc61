/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-1.c was
   compiled, under another name so that both gradients can be linked.  */
#define dense_relu_grad dense_relu_grad_c
#include "dump-c-1.gen.c"
