/* The C that -fplugin-arg-tensorgrad-dump-c wrote while tiled-dump-c-1.c
   was compiled, under another name so that both gradients can be
   linked.  */
#define linear_grad linear_grad_c
#include "tiled-dump-c-1.gen.c"
