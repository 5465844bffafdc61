/* cgen-tiled.c -- the tiled product's function (back/tiled.h) as C, for
   dump-c: what plugin/tiled.cc builds as GENERIC, with 16-byte vectors
   (GCC's vector extension; the GIMPLE takes the target's preferred
   width, which changes no sum: tiled.h), and on x86-64 ELF its wide
   versions (target attributes, their multiply-adds fused by the x86
   builtins and __builtin_fma, as the GIMPLE's IFN_FMA) behind an ifunc
   whose resolver chooses as plugin/tiled.cc's does.  */

#include "back/cgen.h"
#include "back/cgen-text.h"
#include "back/tiled.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* One version of the function as printed: its name, its vector type's
   name and lanes, its tile's rows, and for a wide version (fused
   multiply-adds) its width in bytes (0: the default version).  */
typedef struct version
{
  const char *name, *vt;
  int vl, mr, vbytes;
} version;

/* C + A * B as V computes it, for vectors (VEC) or scalars of type D
   (double) or float, into OUT.  */
static void
madd (sbuf *out, const version *v, bool vec, bool d, const char *a,
      const char *b, const char *c)
{
  if (!v->vbytes)
    sb_printf (out, "%s + %s * %s", c, a, b);
  else if (!vec)
    sb_printf (out, "__builtin_fma%s (%s, %s, %s)", d ? "" : "f", a, b, c);
  else if (v->vbytes == 32)
    sb_printf (out, "__builtin_ia32_vfmadd%s256 (%s, %s, %s)", d ? "pd" : "ps",
	       a, b, c);
  else
    sb_printf (out, "__builtin_ia32_vfmadd%s512_mask (%s, %s, %s, -1, 4)",
	       d ? "pd" : "ps", a, b, c);
}

/* The function's parameters after its name, for type T, into OUT.  */
static void
params (sbuf *out, const char *t)
{
  sb_printf (out,
	     " (long m, long n, long k, %s alpha, "
	     "const %s *a, long sai,\n  long sap, const %s *b, long sbp, long "
	     "sbj, %s *c, long ldc,\n  long set)",
	     t, t, t, t);
}

/* The packing and the loops down to a tile (tiled.h steps 1 and 2) for
   version V of type T, into OUT.  */
static void
version_head (sbuf *out, const version *v, const char *t)
{
  const int MR = v->mr, NR = TE_TILED_NV * v->vl;
  sb_printf (out,
	     "{\n"
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
	     "              if (sbp == 1)\n"
	     "                for (long x = 0; x < %d; x++)\n"
	     "                  for (long p = 0; p < kc; p++)\n"
	     "                    pb[jr * kc + p * %d + x] = jr + x < nc ? "
	     "b[(jr + jc + x) * sbj + (pc + p) * sbp] : 0;\n"
	     "              else\n"
	     "                for (long p = 0; p < kc; p++)\n"
	     "                  for (long x = 0; x < %d; x++)\n"
	     "                    pb[jr * kc + p * %d + x] = jr + x < nc ? "
	     "b[(jr + jc + x) * sbj + (pc + p) * sbp] : 0;\n"
	     "            for (long ic = 0; ic < m; ic += %d)\n"
	     "              {\n"
	     "                long mc = m - ic < %d ? m - ic : %d;\n"
	     "                for (long ir = 0; ir < mc; ir += %d)\n"
	     "                  if (sap == 1)\n"
	     "                    for (long x = 0; x < %d; x++)\n"
	     "                      for (long p = 0; p < kc; p++)\n"
	     "                        pa[ir * kc + p * %d + x] = ir + x < mc ? "
	     "a[(ir + ic + x) * sai + (pc + p) * sap] : 0;\n"
	     "                  else\n"
	     "                    for (long p = 0; p < kc; p++)\n"
	     "                      for (long x = 0; x < %d; x++)\n"
	     "                        pa[ir * kc + p * %d + x] = ir + x < mc ? "
	     "a[(ir + ic + x) * sai + (pc + p) * sap] : 0;\n"
	     "                for (long jr = 0; jr < nc; jr += %d)\n"
	     "                  for (long ir = 0; ir < mc; ir += %d)\n"
	     "                    {\n"
	     "                      const %s *ap = pa + ir * kc, *bp = pb + jr "
	     "* kc;\n",
	     TE_TILED_NC_PANELS * NR, TE_TILED_NC_PANELS * NR,
	     TE_TILED_NC_PANELS * NR, TE_TILED_KC, TE_TILED_KC, TE_TILED_KC, NR,
	     NR, NR, NR, NR, TE_TILED_MC, TE_TILED_MC, TE_TILED_MC, MR, MR, MR,
	     MR, MR, NR, MR, t);
}

/* One MR x NR tile (tiled.h step 3) of version V of type T (D: double),
   into OUT.  */
static void
version_tile (sbuf *out, const version *v, const char *t, bool d)
{
  const int MR = v->mr, NV = TE_TILED_NV, vl = v->vl, NR = NV * vl;
  const char *ind = "                      ";
  char a[32], b[32], c[64];
  sb_printf (out, "%s%s", ind, v->vt);
  for (int r = 0; r < MR; r++)
    for (int j = 0; j < NV; j++)
      sb_printf (out, "%s acc%d_%d = { 0 }", r || j ? "," : "", r, j);
  sb_printf (out, ";\n%sfor (long p = 0; p < kc; p++)\n%s  {\n", ind, ind);
  for (int j = 0; j < NV; j++)
    sb_printf (out, "%s    %s bv%d = *(const %s *) (bp + %d);\n", ind, v->vt, j,
	       v->vt, j * vl);
  for (int r = 0; r < MR; r++)
    {
      sb_printf (out, "%s    %s av%d = { ", ind, v->vt, r);
      for (int l = 0; l < vl; l++)
	sb_printf (out, "%sap[%d]", l ? ", " : "", r);
      sb_printf (out, " };\n");
      for (int j = 0; j < NV; j++)
	{
	  snprintf (a, sizeof a, "av%d", r);
	  snprintf (b, sizeof b, "bv%d", j);
	  snprintf (c, sizeof c, "acc%d_%d", r, j);
	  sb_printf (out, "%s    %s = ", ind, c);
	  madd (out, v, true, d, a, b, c);
	  sb_printf (out, ";\n");
	}
    }
  sb_printf (out, "%s    ap += %d;\n%s    bp += %d;\n%s  }\n", ind, MR, ind, NR,
	     ind);
  sb_printf (out,
	     "%s%s *cp = c + (ic + ir) * ldc + jc + jr;\n"
	     "%slong mr = mc - ir < %d ? mc - ir : %d, nr = nc - jr < %d ? "
	     "nc - jr : %d;\n"
	     "%sif (mr == %d && nr == %d)\n%s  {\n",
	     ind, t, ind, MR, MR, NR, NR, ind, MR, NR, ind);
  sb_printf (out, "%s    %s alv = {", ind, v->vt);
  for (int l = 0; l < vl; l++)
    sb_printf (out, "%s alpha", l ? "," : "");
  sb_printf (out, " };\n");
  /* In the set form's first block, C = alpha * tile (a plain multiply);
     else C += it.  */
  for (int f = 0; f < 2; f++)
    {
      sb_printf (out, "%s    %s\n", ind, f ? "else" : "if (first)");
      for (int r = 0; r < MR; r++)
	for (int j = 0; j < NV; j++)
	  {
	    snprintf (b, sizeof b, "acc%d_%d", r, j);
	    snprintf (c, sizeof c, "*(%s *) (cp + %d * ldc + %d)", v->vt, r,
		      j * vl);
	    sb_printf (out, "%s    %s%s = ", ind, r || j ? "  " : "{ ", c);
	    if (f)
	      madd (out, v, true, d, "alv", b, c);
	    else
	      sb_printf (out, "alv * %s", b);
	    sb_printf (out, ";\n");
	  }
      sb_printf (out, "%s    }\n", ind);
    }
  sb_printf (out, "%s  }\n%selse\n%s  {\n%s    %s t[%d];\n", ind, ind, ind, ind,
	     t, MR * NR);
  for (int r = 0; r < MR; r++)
    for (int j = 0; j < NV; j++)
      sb_printf (out, "%s    *(%s *) (t + %d) = acc%d_%d;\n", ind, v->vt,
		 r * NR + j * vl, r, j);
  sb_printf (out,
	     "%s    for (long i = 0; i < mr; i++)\n"
	     "%s      for (long j = 0; j < nr; j++)\n"
	     "%s        cp[i * ldc + j] = first ? alpha * t[i * %d + j] : ",
	     ind, ind, ind, NR);
  snprintf (b, sizeof b, "t[i * %d + j]", NR);
  madd (out, v, false, d, "alpha", b, "cp[i * ldc + j]");
  sb_printf (out,
	     ";\n%s  }\n"
	     "                    }\n"
	     "              }\n"
	     "          }\n"
	     "      }\n",
	     ind);
}

/* Version V of the function for type T (D: double), its name and
   parameters already printed, into OUT.  */
static void
version_body (sbuf *out, const version *v, const char *t, bool d)
{
  version_head (out, v, t);
  version_tile (out, v, t, d);
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
	     "                s = ",
	     TE_TILED_KC, TE_TILED_KC, TE_TILED_KC, t);
  madd (out, v, false, d, "a[i * sai + (pc + p) * sap]",
	"b[(pc + p) * sbp + j * sbj]", "s");
  sb_printf (out, ";\n              c[i * ldc + j] = first ? alpha * s : ");
  madd (out, v, false, d, "alpha", "s", "c[i * ldc + j]");
  sb_printf (out, ";\n"
		  "            }\n"
		  "      }\n"
		  "  free (pa);\n  free (pb);\n}\n");
}

/* The C of tg_tiled_f32 (TYPE TE_F32) or tg_tiled_f64, in an #ifndef of
   its own (a dump-c file holds the gradients of several kernels), into
   OUT: on x86-64 ELF an ifunc of the versions, elsewhere the default
   version under that name.  */
void
cg_tiled_function (te_type type, sbuf *out)
{
  bool d = type == TE_F64;
  const char *t = d ? "double" : "float", *sfx = d ? "f64" : "f32";
  const int es = d ? 8 : 4;
  const te_tiled_wide ws[TE_TILED_NWIDE] = TE_TILED_WIDE;
  char name[64], vt[64];
  sb_printf (out,
	     "\n#ifndef TG_TILED_%s\n#define TG_TILED_%s\n"
	     "/* C(i, j) += alpha * sum_p A(i, p) B(p, j), A(i, p) = a[i*sai + "
	     "p*sap],\n   B(p, j) = b[p*sbp + j*sbj], C(i, j) = c[i*ldc + j]: "
	     "a matrix product\n   cache-tiled, in %d x %d register tiles "
	     "(tensorgrad's lib/back/tiled.h);\n   with SET, C = (C's old "
	     "value not read).  */\n"
	     "typedef %s tg_v%s __attribute__ ((vector_size (16), aligned "
	     "(sizeof (%s))));\n",
	     sfx, sfx, TE_TILED_MR, TE_TILED_NV * 16 / es, t, sfx, t);
  snprintf (name, sizeof name, "tg_tiled_%s", sfx);
  snprintf (vt, sizeof vt, "tg_v%s", sfx);
  version dflt = { name, vt, 16 / es, TE_TILED_MR, 0 };
  sb_printf (out, "#if defined (__x86_64__) && defined (__ELF__)\n"
		  "/* The versions for wider vector units, their multiply-adds "
		  "fused,\n   chosen when the program starts.  */\n");
  for (int i = 0; i < TE_TILED_NWIDE; i++)
    sb_printf (out,
	       "typedef %s tg_v%s_%s __attribute__ ((vector_size (%d), aligned "
	       "(sizeof (%s))));\n",
	       t, sfx, ws[i].suffix, ws[i].vbytes, t);
  snprintf (name, sizeof name, "tg_tiled_%s_default", sfx);
  sb_printf (out, "static void\n%s", name);
  params (out, t);
  sb_printf (out, "\n");
  version_body (out, &dflt, t, d);
  for (int i = 0; i < TE_TILED_NWIDE; i++)
    {
      snprintf (name, sizeof name, "tg_tiled_%s_%s", sfx, ws[i].suffix);
      snprintf (vt, sizeof vt, "tg_v%s_%s", sfx, ws[i].suffix);
      version w = { name, vt, ws[i].vbytes / es, ws[i].mr, ws[i].vbytes };
      sb_printf (out, "__attribute__ ((target (\"%s\"))) static void\n%s",
		 ws[i].target, name);
      params (out, t);
      sb_printf (out, "\n");
      version_body (out, &w, t, d);
    }
  sb_printf (out,
	     "/* Run by the dynamic linker before a sanitizer's run-time is "
	     "set up.  */\n"
	     "__attribute__ ((no_sanitize (\"address\", \"undefined\")))\n"
	     "static void (*tg_tiled_%s_resolver (void)) (long, long, long, "
	     "%s,\n  const %s *, long, long, const %s *, long, long, %s *, "
	     "long,\n  long)\n{\n  __builtin_cpu_init ();\n",
	     sfx, t, t, t, t);
  for (int i = 0; i < TE_TILED_NWIDE; i++)
    {
      sb_printf (out, "  if (");
      char feats[64];
      snprintf (feats, sizeof feats, "%s", ws[i].target);
      int nf = 0;
      for (char *f = strtok (feats, ","); f; f = strtok (NULL, ","))
	sb_printf (out, "%s__builtin_cpu_supports (\"%s\")", nf++ ? " && " : "",
		   f);
      sb_printf (out, ")\n    return tg_tiled_%s_%s;\n", sfx, ws[i].suffix);
    }
  sb_printf (out,
	     "  return tg_tiled_%s_default;\n}\n"
	     "static void tg_tiled_%s",
	     sfx, sfx);
  params (out, t);
  sb_printf (out,
	     "\n  __attribute__ ((ifunc (\"tg_tiled_%s_resolver\")));\n"
	     "#else\nstatic void\ntg_tiled_%s",
	     sfx, sfx);
  params (out, t);
  sb_printf (out, "\n");
  dflt.name = "";
  version_body (out, &dflt, t, d);
  sb_printf (out, "#endif\n#endif\n");
}
