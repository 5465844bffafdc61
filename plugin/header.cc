/* header.cc -- the prototypes -fplugin-arg-tensorgrad-header=FILE writes.

   Before:  void scale (int n, double a, const double *x, double *y);
            (a C kernel) and, in C++, namespace nn { void relu (int n,
            const float *x, float *y); }
   After:   #ifdef __cplusplus
            extern "C" {
            #endif
            void scale_grad (int n, double a, const double *x, double *y,
                             double *d_a, double *d_x, double *d_y);
            #ifdef __cplusplus
            }
            #endif
            #ifdef __cplusplus
            namespace nn {
            void relu_grad (int n, const float *x, float *y, float *d_x,
                            float *d_y);
            }
            #endif

   1. Each public gradient joins one of two lists, as its kernel's
      language linkage says: C (every kernel of a C file, an extern "C"
      one of a C++ file) or C++ (in its kernel's namespaces).
   2. A parameter's type is spelled without typedefs (size_t is the
      type it stands for, a VLA parameter a pointer to its element, a
      bool bool, with <stdbool.h> in C), so the header needs no
      declaration of the kernel's file.
   3. At the end of the file: the C list inside extern "C" guards, which
      a C and a C++ file can include alike; the C++ list, which only C++
      can declare, inside #ifdef __cplusplus.

   Limits: an enum parameter is spelled by its tag, which the includer
   must declare.  */

#include "header.h"
#include "cxx.h"

#include <string.h>

/* Step 1: the two lists, as text.  */
static char *c_text, *cxx_text;
static size_t c_len, cxx_len;
static FILE *c_list, *cxx_list;
/* Whether a parameter is a bool: <stdbool.h> for C.  */
static bool uses_bool;

/* The list *F (its text in *TEXT, *LEN), opened the first time.  */
static FILE *
list (FILE **f, char **text, size_t *len)
{
  if (!*f)
    *f = open_memstream (text, len);
  return *f;
}

/* Step 2: print TYPE, of a parameter NAME, to F.  */
static void
print_param (FILE *f, tree type, const char *name)
{
  int stars = 0;
  for (; TREE_CODE (type) == POINTER_TYPE; type = TREE_TYPE (type))
    stars++;
  while (TREE_CODE (type) == ARRAY_TYPE)
    type = TREE_TYPE (type);
  tree mv = TYPE_MAIN_VARIANT (type);
  tree tname = TYPE_NAME (mv);
  if (tname && TREE_CODE (tname) == TYPE_DECL)
    tname = DECL_NAME (tname);
  char *s;
  if (TREE_CODE (mv) == BOOLEAN_TYPE)
    {
      uses_bool = true;
      s = xstrdup ("bool");
    }
  else if (TREE_CODE (mv) != ENUMERAL_TYPE && tname
           && TREE_CODE (tname) == IDENTIFIER_NODE)
    s = xstrdup (IDENTIFIER_POINTER (tname));
  else
    s = print_generic_expr_to_str (mv);
  fprintf (f, "%s%s%s", TYPE_READONLY (type) ? "const " : "",
           TYPE_VOLATILE (type) ? "volatile " : "", s);
  fputc (' ', f);
  for (int i = 0; i < stars; i++)
    fputc ('*', f);
  fputs (name, f);
  free (s);
}

void
header_add (tree kernel, tree grad, const te_program *bwd)
{
  if (!TREE_PUBLIC (kernel))
    return; /* a static gradient: no other file can call it */
  bool c = cxx_c_linkage (kernel);
  FILE *f = c ? list (&c_list, &c_text, &c_len)
              : list (&cxx_list, &cxx_text, &cxx_len);
  if (!f)
    return;
  int nested = c ? 0 : cxx_print_namespaces (f, kernel);
  fprintf (f, "void %s (", IDENTIFIER_POINTER (DECL_NAME (grad)));
  int i = 0;
  for (tree t = TYPE_ARG_TYPES (TREE_TYPE (grad));
       t && !VOID_TYPE_P (TREE_VALUE (t)); t = TREE_CHAIN (t), i++)
    {
      if (i)
        fputs (", ", f);
      print_param (f, TREE_VALUE (t),
                   i < bwd->nparams ? bwd->params[i].name : "");
    }
  fputs (");\n", f);
  for (int k = 0; k < nested; k++)
    fputs ("}\n", f);
}

/* The text of list *F, closed, or NULL if it has none.  */
static char *
close_list (FILE **f, char **text)
{
  if (!*f)
    return NULL;
  fclose (*f);
  *f = NULL;
  char *s = *text;
  *text = NULL;
  return s;
}

void
header_write (FILE *f, const char *name)
{
  char *c = close_list (&c_list, &c_text);
  char *cxx = close_list (&cxx_list, &cxx_text);
  /* A guard of its own, from the file's name: a program may include
     the headers of several files.  */
  char guard[256];
  size_t n = 0;
  const char *base = lbasename (name);
  strcpy (guard, "TENSORGRAD_");
  n = strlen (guard);
  for (const char *s = base; *s && n + 1 < sizeof guard; s++)
    guard[n++] = ISALNUM (*s) ? TOUPPER (*s) : '_';
  guard[n] = 0;
  fprintf (f, "/* Prototypes of the gradients tensorgrad synthesized; "
              "generated, do not edit.  */\n"
              "#ifndef %s\n#define %s\n\n#include <stdint.h>\n",
           guard, guard);
  if (uses_bool)
    fputs ("#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n", f);
  /* Step 3.  */
  if (c)
    fprintf (f, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n%s\n"
                "#ifdef __cplusplus\n}\n#endif\n",
             c);
  if (cxx)
    fprintf (f, "\n#ifdef __cplusplus\n%s#endif\n", cxx);
  fputs ("\n#endif\n", f);
  free (c);
  free (cxx);
  uses_bool = false;
}
