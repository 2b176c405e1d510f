/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* suggest_capi.c: wsSuggestOperation (ws-c/Compile.h): a "did you mean"
 * for a mistyped operation name. MLIR's parser says only that the name is
 * unknown; the registered name one edit away is nearly always the one
 * meant (ws.laod, arith.mulff). */
#include "ws-c/Compile.h"

#include <stdio.h>
#include <string.h>

enum { MAX_NAME = 96 };

/* The name in `message` after `prefix` up to the next quote, into out. */
static bool quoted_after(MlirStringRef message, const char *prefix, char *out, size_t cap) {
  size_t n = strlen(prefix);
  for (size_t i = 0; i + n < message.length; i++) {
    if (memcmp(message.data + i, prefix, n) != 0)
      continue;
    size_t start = i + n, end = start;
    while (end < message.length && message.data[end] != '\'')
      end++;
    if (end >= message.length || end == start || end - start >= cap)
      return false;
    memcpy(out, message.data + start, end - start);
    out[end - start] = '\0';
    return true;
  }
  return false;
}

static bool registered(MlirContext ctx, const char *name) {
  return mlirContextIsRegisteredOperation(ctx, mlirStringRefCreateFromCString(name));
}

/* A registered name one edit (a letter dropped, two swapped, one changed
 * or one added) from `name` after its dialect's dot, into out. The edits
 * are tried in that order, each left to right, so the answer is stable. */
static bool one_edit_away(MlirContext ctx, const char *name, char *out, size_t cap) {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz_.0123456789";
  const char *dot = strchr(name, '.');
  size_t from = dot ? (size_t)(dot - name) + 1 : 0, n = strlen(name);
  char candidate[MAX_NAME + 2];
  if (n >= MAX_NAME)
    return false;
  for (size_t i = from; i < n; i++) { /* dropped */
    snprintf(candidate, sizeof candidate, "%.*s%s", (int)i, name, name + i + 1);
    if (registered(ctx, candidate))
      goto found;
  }
  for (size_t i = from; i + 1 < n; i++) { /* swapped */
    snprintf(candidate, sizeof candidate, "%s", name);
    char c = candidate[i];
    candidate[i] = candidate[i + 1];
    candidate[i + 1] = c;
    if (registered(ctx, candidate))
      goto found;
  }
  for (size_t i = from; i < n; i++) /* changed */
    for (const char *l = letters; *l; l++) {
      snprintf(candidate, sizeof candidate, "%s", name);
      candidate[i] = *l;
      if (*l != name[i] && registered(ctx, candidate))
        goto found;
    }
  for (size_t i = from; i <= n; i++) /* added */
    for (const char *l = letters; *l; l++) {
      snprintf(candidate, sizeof candidate, "%.*s%c%s", (int)i, name, *l, name + i);
      if (registered(ctx, candidate))
        goto found;
    }
  return false;
found:
  snprintf(out, cap, "%s", candidate);
  return true;
}

bool wsSuggestOperation(MlirContext ctx, MlirStringRef message, char *out, size_t cap) {
  char name[MAX_NAME];
  if (!quoted_after(message, "unregistered operation '", name, sizeof name) &&
      !quoted_after(message, "custom op '", name, sizeof name))
    return false;
  if (registered(ctx, name))
    return false;
  return one_edit_away(ctx, name, out, cap);
}
