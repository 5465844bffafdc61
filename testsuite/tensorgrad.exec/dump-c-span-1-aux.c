/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-span-1.c
   was compiled, under another name so that both gradients can be
   linked.  */
#define scale_grad scale_grad_c
#include "dump-c-span-1.gen.c"
