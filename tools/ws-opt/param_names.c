/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* param_names.c: a launch function's parameters take the kernel's
 * argument names where C allows them, so that a caller's editor shows
 * `x, y, out, alpha` rather than `arg0..arg3`. */
#include "param_names.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C's keywords (C23's too), the names the generated launch function and
 * its rules use, and macros of the headers it includes or gcc predefines
 * in GNU modes. */
static const char *const taken[] = {"auto",
                                    "break",
                                    "case",
                                    "char",
                                    "const",
                                    "continue",
                                    "default",
                                    "do",
                                    "double",
                                    "else",
                                    "enum",
                                    "extern",
                                    "float",
                                    "for",
                                    "goto",
                                    "if",
                                    "inline",
                                    "int",
                                    "long",
                                    "register",
                                    "restrict",
                                    "return",
                                    "short",
                                    "signed",
                                    "sizeof",
                                    "static",
                                    "struct",
                                    "switch",
                                    "typedef",
                                    "union",
                                    "unsigned",
                                    "void",
                                    "volatile",
                                    "while",
                                    "alignas",
                                    "alignof",
                                    "bool",
                                    "true",
                                    "false",
                                    "nullptr",
                                    "static_assert",
                                    "thread_local",
                                    "typeof",
                                    "typeof_unqual",
                                    "constexpr",
                                    "m",
                                    "stream",
                                    "grid_x",
                                    "grid_y",
                                    "grid_z",
                                    "r",
                                    "values",
                                    "where",
                                    "slots",
                                    "params",
                                    "num_params",
                                    "resident",
                                    "grid",
                                    "checked",
                                    "cluster",
                                    "config",
                                    "cubin",
                                    "error",
                                    "refuse",
                                    "name_refusal",
                                    "check_resident",
                                    "check_tensor",
                                    "check_array",
                                    "encode",
                                    "prepare_descriptor",
                                    "has_element",
                                    "store_view",
                                    "dtype_name",
                                    "NULL",
                                    "EOF",
                                    "BUFSIZ",
                                    "FILENAME_MAX",
                                    "FOPEN_MAX",
                                    "L_tmpnam",
                                    "TMP_MAX",
                                    "SEEK_SET",
                                    "SEEK_CUR",
                                    "SEEK_END",
                                    "stdin",
                                    "stdout",
                                    "stderr",
                                    "errno",
                                    "assert",
                                    "offsetof",
                                    "va_start",
                                    "va_arg",
                                    "va_end",
                                    "va_copy",
                                    "va_list",
                                    "linux",
                                    "unix",
                                    "i386"};

static bool is_c_identifier(const char *s) {
  if (!isalpha((unsigned char)s[0]) && s[0] != '_')
    return false;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      return false;
  return true;
}

/* Spellings a header or the C standard reserves or the launcher's own
 * names follow: _X and __x, *_t, ws_ and WS_, CUDA's cuX and CU_ / CUX,
 * INTn_MAX and the like, and argN (another parameter's fallback). */
static bool reserved_spelling(const char *s) {
  size_t n = strlen(s);
  if (s[0] == '_' || (n > 2 && strcmp(s + n - 2, "_t") == 0))
    return true;
  if (!strncmp(s, "ws_", 3) || !strncmp(s, "WS_", 3) || !strncmp(s, "CU", 2) ||
      (s[0] == 'c' && s[1] == 'u' && isupper((unsigned char)s[2])))
    return true;
  bool upper = true;
  for (const char *p = s; *p; p++)
    upper = upper && !islower((unsigned char)*p);
  if (upper && n > 1) /* all-capital names are macro spellings (INT32_MAX) */
    return true;
  if (!strncmp(s, "arg", 3) && s[3]) {
    const char *p = s + 3;
    while (isdigit((unsigned char)*p))
      p++;
    if (!*p)
      return true;
  }
  return false;
}

static bool usable(const char *s) {
  if (!s[0] || !is_c_identifier(s) || reserved_spelling(s))
    return false;
  for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
    if (!strcmp(s, taken[i]))
      return false;
  return true;
}

void launcher_params_name(const WsKernelInfo *k, launcher_params *out) {
  out->name = calloc((size_t)k->num_args + 1, sizeof *out->name);
  if (!out->name)
    abort(); /* as MLIR does when memory runs out */
  for (int i = 0; i < k->num_args; i++) {
    const char *name = k->args[i].name;
    bool ok = usable(name);
    for (int j = 0; ok && j < k->num_args; j++) /* MLIR refuses duplicates; be sure */
      ok = j == i || strcmp(k->args[j].name, name) != 0;
    if (ok)
      snprintf(out->name[i], sizeof out->name[i], "%s", name);
    else
      snprintf(out->name[i], sizeof out->name[i], "arg%d", i);
  }
}

void launcher_params_free(launcher_params *p) {
  free(p->name);
  p->name = NULL;
}
