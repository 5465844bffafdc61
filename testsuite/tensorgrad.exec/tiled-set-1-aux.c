/* The C that -fplugin-arg-tensorgrad-dump-c wrote while tiled-set-1.c
   was compiled (the gradients renamed), and its tiled function's
   versions for tiled-set-1.c to call one by one.  */
#define conv_d_grad conv_d_grad_c
#define conv_f_grad conv_f_grad_c
#include "tiled-set-1.gen.c"

typedef void tiled_f64 (long, long, long, double, const double *, long, long,
			const double *, long, long, double *, long, long);
typedef void tiled_f32 (long, long, long, float, const float *, long, long,
			const float *, long, long, float *, long, long);

tiled_f64 *const c_f64[3]
    = { tg_tiled_f64_default, tg_tiled_f64_avx2, tg_tiled_f64_avx512 };
tiled_f32 *const c_f32[3]
    = { tg_tiled_f32_default, tg_tiled_f32_avx2, tg_tiled_f32_avx512 };
