/* The C that -fplugin-arg-tensorgrad-dump-c wrote while winograd-tiled-1.c
   was compiled, under other names so that both gradients can be linked.  */
#define conv_grad conv_grad_c
#define one_grad one_grad_c
#include "winograd-tiled-1.gen.c"
