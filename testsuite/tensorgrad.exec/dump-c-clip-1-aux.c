/* The C that -fplugin-arg-tensorgrad-dump-c wrote while dump-c-clip-1.c
   was compiled, under another name so that both gradients can be
   linked.  */
#define conv_grad conv_grad_c
#include "dump-c-clip-1.gen.c"
