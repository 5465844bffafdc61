/* cgen-tiled.c -- the tiled product's function (back/tiled.h) as C, for
   dump-c: what plugin/tiled.cc builds as GENERIC, with 16-byte vectors
   (GCC's vector extension; the GIMPLE takes the target's preferred
   width, which changes no sum: tiled.h).  */

#include "back/cgen.h"
#include "back/cgen-text.h"
#include "back/tiled.h"

#include <stdbool.h>

/* The C of tg_tiled_f32 (TYPE TE_F32) or tg_tiled_f64, in an #ifndef of
   its own (a dump-c file holds the gradients of several kernels), into
   OUT.  */
void
cg_tiled_function (te_type type, sbuf *out)
{
  bool d = type == TE_F64;
  const char *t = d ? "double" : "float", *sfx = d ? "f64" : "f32";
  const int vl = 16 / (d ? 8 : 4), MR = TE_TILED_MR, NV = TE_TILED_NV;
  const int NR = NV * vl;
  sb_printf (out,
	     "\n#ifndef TG_TILED_%s\n#define TG_TILED_%s\n"
	     "/* C(i, j) += alpha * sum_p A(i, p) B(p, j), A(i, p) = a[i*sai + "
	     "p*sap],\n   B(p, j) = b[p*sbp + j*sbj], C(i, j) = c[i*ldc + j]: "
	     "a matrix product\n   cache-tiled, in %d x %d register tiles "
	     "(tensorgrad's lib/back/tiled.h);\n   with SET, C = (C's old "
	     "value not read).  */\n"
	     "typedef %s tg_v%s __attribute__ ((vector_size (16), aligned "
	     "(sizeof (%s))));\n"
	     "static void\ntg_tiled_%s (long m, long n, long k, %s alpha, "
	     "const %s *a, long sai,\n  long sap, const %s *b, long sbp, long "
	     "sbj, %s *c, long ldc,\n  long set)\n{\n",
	     sfx, sfx, MR, NR, t, sfx, t, sfx, t, t, t, t);
  sb_printf (out,
	     "  long kmax = k < %d ? k : %d, mmax = m < %d ? m : %d,\n"
	     "       nmax = n < %d ? n : %d;\n"
	     "  %s *pa = malloc ((size_t) ((mmax + %d) / %d * %d * kmax) * "
	     "sizeof (%s));\n"
	     "  %s *pb = malloc ((size_t) ((nmax + %d) / %d * %d * kmax) * "
	     "sizeof (%s));\n",
	     TE_TILED_KC, TE_TILED_KC, TE_TILED_MC, TE_TILED_MC,
	     TE_TILED_NC_PANELS * NR, TE_TILED_NC_PANELS * NR, t, MR - 1, MR,
	     MR, t, t, NR - 1, NR, NR, t);
  sb_printf (out,
	     "  if (pa && pb)\n"
	     "    for (long jc = 0; jc < n; jc += %d)\n"
	     "      {\n"
	     "        long nc = n - jc < %d ? n - jc : %d;\n"
	     "        for (long pc = 0; pc < k; pc += %d)\n"
	     "          {\n"
	     "            long kc = k - pc < %d ? k - pc : %d;\n"
	     "            long first = set && pc == 0;\n"
	     "            for (long jr = 0; jr < nc; jr += %d)\n"
	     "              for (long p = 0; p < kc; p++)\n"
	     "                for (long x = 0; x < %d; x++)\n"
	     "                  pb[jr * kc + p * %d + x] = jr + x < nc ? "
	     "b[(jr + jc + x) * sbj + (pc + p) * sbp] : 0;\n"
	     "            for (long ic = 0; ic < m; ic += %d)\n"
	     "              {\n"
	     "                long mc = m - ic < %d ? m - ic : %d;\n"
	     "                for (long ir = 0; ir < mc; ir += %d)\n"
	     "                  for (long p = 0; p < kc; p++)\n"
	     "                    for (long x = 0; x < %d; x++)\n"
	     "                      pa[ir * kc + p * %d + x] = ir + x < mc ? "
	     "a[(ir + ic + x) * sai + (pc + p) * sap] : 0;\n"
	     "                for (long jr = 0; jr < nc; jr += %d)\n"
	     "                  for (long ir = 0; ir < mc; ir += %d)\n"
	     "                    {\n"
	     "                      const %s *ap = pa + ir * kc, *bp = pb + jr "
	     "* kc;\n",
	     TE_TILED_NC_PANELS * NR, TE_TILED_NC_PANELS * NR,
	     TE_TILED_NC_PANELS * NR, TE_TILED_KC, TE_TILED_KC, TE_TILED_KC, NR,
	     NR, NR, TE_TILED_MC, TE_TILED_MC, TE_TILED_MC, MR, MR, MR, NR, MR,
	     t);
  const char *ind = "                      ";
  sb_printf (out, "%stg_v%s", ind, sfx);
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      sb_printf (out, "%s acc%d_%d = { 0 }", r || v ? "," : "", r, v);
  sb_printf (out, ";\n%sfor (long p = 0; p < kc; p++)\n%s  {\n", ind, ind);
  for (int v = 0; v < NV; v++)
    sb_printf (out, "%s    tg_v%s bv%d = *(const tg_v%s *) (bp + %d);\n", ind,
	       sfx, v, sfx, v * vl);
  for (int r = 0; r < MR; r++)
    {
      sb_printf (out, "%s    tg_v%s av%d = { ", ind, sfx, r);
      for (int l = 0; l < vl; l++)
	sb_printf (out, "%sap[%d]", l ? ", " : "", r);
      sb_printf (out, " };\n");
      for (int v = 0; v < NV; v++)
	sb_printf (out, "%s    acc%d_%d += av%d * bv%d;\n", ind, r, v, r, v);
    }
  sb_printf (out, "%s    ap += %d;\n%s    bp += %d;\n%s  }\n", ind, MR, ind, NR,
	     ind);
  sb_printf (out,
	     "%s%s *cp = c + (ic + ir) * ldc + jc + jr;\n"
	     "%slong mr = mc - ir < %d ? mc - ir : %d, nr = nc - jr < %d ? "
	     "nc - jr : %d;\n"
	     "%sif (mr == %d && nr == %d)\n%s  {\n",
	     ind, t, ind, MR, MR, NR, NR, ind, MR, NR, ind);
  sb_printf (out, "%s    tg_v%s alv = {", ind, sfx);
  for (int l = 0; l < vl; l++)
    sb_printf (out, "%s alpha", l ? "," : "");
  sb_printf (out, " };\n");
  for (int f = 0; f < 2; f++)
    {
      sb_printf (out, "%s    %s\n", ind, f ? "else" : "if (first)");
      for (int r = 0; r < MR; r++)
	for (int v = 0; v < NV; v++)
	  sb_printf (out,
		     "%s    %s*(tg_v%s *) (cp + %d * ldc + %d) %s= alv * "
		     "acc%d_%d;\n",
		     ind, r || v ? "  " : "{ ", sfx, r, v * vl, f ? "+" : "", r,
		     v);
      sb_printf (out, "%s    }\n", ind);
    }
  sb_printf (out, "%s  }\n%selse\n%s  {\n%s    %s t[%d];\n", ind, ind, ind, ind,
	     t, MR * NR);
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NV; v++)
      sb_printf (out, "%s    *(tg_v%s *) (t + %d) = acc%d_%d;\n", ind, sfx,
		 r * NR + v * vl, r, v);
  sb_printf (
      out,
      "%s    for (long i = 0; i < mr; i++)\n"
      "%s      for (long j = 0; j < nr; j++)\n"
      "%s        cp[i * ldc + j] = (first ? 0 : cp[i * ldc + j]) + alpha "
      "* t[i * %d + j];\n"
      "%s  }\n"
      "                    }\n"
      "              }\n"
      "          }\n"
      "      }\n",
      ind, ind, ind, NR, ind);
  sb_printf (out,
	     "  else\n"
	     "    for (long pc = 0; pc < k; pc += %d)\n"
	     "      {\n"
	     "        long kc = k - pc < %d ? k - pc : %d;\n"
	     "        long first = set && pc == 0;\n"
	     "        for (long i = 0; i < m; i++)\n"
	     "          for (long j = 0; j < n; j++)\n"
	     "            {\n"
	     "              %s s = 0;\n"
	     "              for (long p = 0; p < kc; p++)\n"
	     "                s += a[i * sai + (pc + p) * sap] * b[(pc + p) * "
	     "sbp + j * sbj];\n"
	     "              c[i * ldc + j] = (first ? 0 : c[i * ldc + j]) + "
	     "alpha * s;\n"
	     "            }\n"
	     "      }\n"
	     "  free (pa);\n  free (pb);\n}\n#endif\n",
	     TE_TILED_KC, TE_TILED_KC, TE_TILED_KC, t);
}
