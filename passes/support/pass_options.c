/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pass_options.c: parse a pass's options from MLIR's textual form
 * ("smem-budget=1000 chip=sm_90a"), the text between a pass name's braces. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_pass.h"

static void set_default(const ws_option_spec *spec, ws_option_value *v) {
  memset(v, 0, sizeof *v);
  const char *d = spec->default_value ? spec->default_value : "";
  switch (spec->kind) {
  case WS_OPTION_INT:
    v->i = strtoll(d, NULL, 10);
    break;
  case WS_OPTION_BOOL:
    v->b = strcmp(d, "true") == 0;
    break;
  case WS_OPTION_STRING:
    snprintf(v->s, sizeof v->s, "%s", d);
    break;
  }
}

/* True when `value` (n bytes) is one of the '|'-separated `choices`. */
static bool is_choice(const char *choices, const char *value, size_t n) {
  const char *p = choices;
  while (*p) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == n && memcmp(p, value, n) == 0)
      return true;
    if (!bar)
      break;
    p = bar + 1;
  }
  return false;
}

/* Writes the '|'-separated choices as "a, b or c" (an empty choice shows
 * as ""), for messages. */
static void describe_choices(const char *choices, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (const char *p = choices;;) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    const char *sep = used == 0 ? "" : bar ? ", " : " or ";
    int n = len ? snprintf(out + used, cap - used, "%s%.*s", sep, (int)len, p)
                : snprintf(out + used, cap - used, "%s\"\"", sep);
    if (n < 0 || (size_t)n >= cap - used)
      return;
    used += (size_t)n;
    if (!bar)
      return;
    p = bar + 1;
  }
}

/* Converts one value; a value may be quoted to hold spaces. */
static bool parse_value(const ws_pass_def *def, const ws_option_spec *spec, const char *value,
                        size_t n, ws_option_value *out, char error[WS_ERROR_MAX]) {
  char text[WS_OPTION_TEXT_MAX];
  if (n >= 2 && (value[0] == '"' || value[0] == '\'') && value[n - 1] == value[0]) {
    value++;
    n -= 2;
  }
  if (n >= sizeof text) {
    snprintf(error, WS_ERROR_MAX, "%s: value of option '%s' is too long", def->argument,
             spec->name);
    return false;
  }
  memcpy(text, value, n);
  text[n] = '\0';
  switch (spec->kind) {
  case WS_OPTION_INT: {
    char *end = NULL;
    errno = 0;
    long long x = strtoll(text, &end, 0);
    if (n == 0 || *end != '\0' || errno != 0 || x < spec->min || x > spec->max) {
      snprintf(error, WS_ERROR_MAX, "%s: option '%s' takes an integer from %lld to %lld, got '%s'",
               def->argument, spec->name, spec->min, spec->max, text);
      return false;
    }
    out->i = x;
    return true;
  }
  case WS_OPTION_BOOL: /* the spellings LLVM's command-line bools take */
    if (n == 0 || is_choice("true|True|TRUE|1", text, n)) {
      out->b = true;
      return true;
    }
    if (is_choice("false|False|FALSE|0", text, n)) {
      out->b = false;
      return true;
    }
    snprintf(error, WS_ERROR_MAX, "%s: option '%s' takes true or false (or 1 or 0), got '%s'",
             def->argument, spec->name, text);
    return false;
  case WS_OPTION_STRING:
    if (spec->choices && !is_choice(spec->choices, text, n)) {
      char allowed[WS_OPTION_TEXT_MAX * 2];
      describe_choices(spec->choices, allowed, sizeof allowed);
      snprintf(error, WS_ERROR_MAX, "%s: option '%s' takes %s, got '%s'", def->argument, spec->name,
               allowed, text);
      return false;
    }
    snprintf(out->s, sizeof out->s, "%s", text);
    return true;
  }
  return false;
}

static const ws_option_spec *find_option(const ws_pass_def *def, const char *key, size_t n,
                                         int *index) {
  for (int i = 0; i < def->num_options; i++) {
    if (strlen(def->options[i].name) == n && memcmp(def->options[i].name, key, n) == 0) {
      *index = i;
      return &def->options[i];
    }
  }
  return NULL;
}

/* The pass's option names, comma-separated, for the error that names a
 * misspelt one: the user sees what was meant without --help. */
static void list_option_names(const ws_pass_def *def, char *buf, size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < def->num_options && at < cap; i++) {
    int n = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", def->options[i].name);
    if (n < 0)
      break;
    at += (size_t)n;
  }
}

/* Length of a value starting at p: up to the next blank outside quotes. */
static size_t value_length(const char *p, const char *end) {
  const char *q = p;
  char quote = 0;
  while (q < end) {
    if (quote) {
      if (*q == quote)
        quote = 0;
    } else if (*q == '"' || *q == '\'') {
      quote = *q;
    } else if (*q == ' ' || *q == '\t' || *q == '\n') {
      break;
    }
    q++;
  }
  return (size_t)(q - p);
}

bool ws_parse_pass_options(const ws_pass_def *def, MlirStringRef text, ws_pass_options *out,
                           char error[WS_ERROR_MAX]) {
  out->def = def;
  if (def->num_options > WS_MAX_OPTIONS) { /* a pass table past ws_pass_options' room */
    snprintf(error, WS_ERROR_MAX, "%s: has %d options; ws_pass.h's WS_MAX_OPTIONS is %d",
             def->argument, def->num_options, WS_MAX_OPTIONS);
    return false;
  }
  for (int i = 0; i < def->num_options; i++)
    set_default(&def->options[i], &out->v[i]);
  const char *p = text.data, *end = text.data + text.length;
  while (p < end) {
    if (*p == ' ' || *p == '\t' || *p == '\n') {
      p++;
      continue;
    }
    const char *key = p;
    while (p < end && *p != '=' && *p != ' ' && *p != '\t' && *p != '\n')
      p++;
    size_t key_len = (size_t)(p - key);
    int index = -1;
    const ws_option_spec *spec = find_option(def, key, key_len, &index);
    if (!spec) {
      char names[WS_ERROR_MAX / 2];
      list_option_names(def, names, sizeof names);
      snprintf(error, WS_ERROR_MAX, "%s: unknown option '%.*s' (%s%s)", def->argument, (int)key_len,
               key, def->num_options ? "it takes " : "this pass takes no options", names);
      return false;
    }
    const char *value = p;
    size_t value_len = 0;
    if (p < end && *p == '=') {
      value = ++p;
      value_len = value_length(p, end);
      p += value_len;
    } else if (spec->kind != WS_OPTION_BOOL) {
      snprintf(error, WS_ERROR_MAX, "%s: option '%s' needs a value ('%s=...')", def->argument,
               spec->name, spec->name);
      return false;
    }
    if (!parse_value(def, spec, value, value_len, &out->v[index], error)) {
      if (memchr(value, ',', value_len)) /* `a=1,b=2`: MLIR's options take spaces */
        snprintf(error + strlen(error), WS_ERROR_MAX - strlen(error),
                 " (options are separated by spaces, not commas: '%s=... other=...')", spec->name);
      return false;
    }
  }
  return true;
}

/* The value of option `name`; aborts when opts's pass has none (a typo in
 * ws's own code, which every test of the pass would hit). */
static const ws_option_value *option_value(const ws_pass_options *opts, const char *name,
                                           ws_option_kind kind) {
  int index = -1;
  const ws_option_spec *spec = find_option(opts->def, name, strlen(name), &index);
  if (!spec || spec->kind != kind) {
    fprintf(stderr, "ws: internal error: %s has no %s option '%s'\n", opts->def->argument,
            kind == WS_OPTION_INT    ? "integer"
            : kind == WS_OPTION_BOOL ? "boolean"
                                     : "string",
            name);
    abort();
  }
  return &opts->v[index];
}

long long ws_option_int(const ws_pass_options *opts, const char *name) {
  return option_value(opts, name, WS_OPTION_INT)->i;
}

bool ws_option_bool(const ws_pass_options *opts, const char *name) {
  return option_value(opts, name, WS_OPTION_BOOL)->b;
}

const char *ws_option_string(const ws_pass_options *opts, const char *name) {
  return option_value(opts, name, WS_OPTION_STRING)->s;
}

/* An option's value as its text form ("4", "true", "sm_90a"), with
 * `prefix` before it; snprintf's count. */
static int format_value(char *buf, size_t cap, const char *prefix, const ws_option_spec *spec,
                        const ws_option_value *v) {
  if (spec->kind == WS_OPTION_INT)
    return snprintf(buf, cap, "%s%lld", prefix, v->i);
  return snprintf(buf, cap, "%s%s", prefix,
                  spec->kind == WS_OPTION_BOOL ? (v->b ? "true" : "false") : v->s);
}

bool ws_option_text(const ws_pass_options *opts, const char *name, char *buf, size_t cap) {
  int index = -1;
  const ws_option_spec *spec = find_option(opts->def, name, strlen(name), &index);
  if (!spec)
    return false;
  int n = format_value(buf, cap, "", spec, &opts->v[index]);
  return n >= 0 && (size_t)n < cap;
}

const char *ws_forward_options(const ws_pass_options *from, const ws_pass_def *to, char *buf,
                               size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < to->num_options && len < cap; i++) {
    const ws_option_spec *spec = &to->options[i];
    int index = -1;
    const ws_option_spec *have = find_option(from->def, spec->name, strlen(spec->name), &index);
    if (!have || have->kind != spec->kind)
      continue;
    char prefix[WS_OPTION_TEXT_MAX + 2];
    snprintf(prefix, sizeof prefix, "%s%s=", len ? " " : "", spec->name);
    len += (size_t)format_value(buf + len, cap - len, prefix, spec, &from->v[index]);
  }
  return buf;
}
