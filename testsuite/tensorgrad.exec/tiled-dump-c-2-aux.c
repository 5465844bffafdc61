/* The C that -fplugin-arg-tensorgrad-dump-c wrote while tiled-dump-c-2.c
   was compiled, under other names so that both gradients can be
   linked.  */
#define conv_d_grad conv_d_grad_c
#define conv_f_grad conv_f_grad_c
#include "tiled-dump-c-2.gen.c"
