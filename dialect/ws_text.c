/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_text.c: bounded printing of MLIR objects into C buffers. */
#include "ws_text.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ws_text_init(ws_text *t, char *buf, size_t cap) {
  t->buf = buf;
  t->cap = cap;
  t->len = 0;
  t->truncated = false;
  t->grows = false;
  buf[0] = '\0';
}

void ws_text_grown(ws_text *t) {
  char *buf = malloc(256);
  if (!buf)
    abort(); /* out of memory: as MLIR itself does */
  ws_text_init(t, buf, 256);
  t->grows = true;
}

void ws_text_release(ws_text *t) {
  if (t->grows)
    free(t->buf);
  t->buf = NULL;
  t->cap = t->len = 0;
}

/* Makes room for n more bytes in a growing text. */
static void make_room(ws_text *t, size_t n) {
  size_t cap = t->cap;
  while (cap - 1 - t->len < n)
    cap *= 2;
  if (cap == t->cap)
    return;
  char *buf = realloc(t->buf, cap);
  if (!buf)
    abort();
  t->buf = buf;
  t->cap = cap;
}

/* Copies what fits and remembers that the rest was cut, so a message about
 * a huge type stays a message instead of an overflow. */
void ws_text_append_ref(MlirStringRef s, void *text) {
  ws_text *t = text;
  if (t->grows)
    make_room(t, s.length);
  size_t room = t->cap - 1 - t->len;
  size_t n = s.length < room ? s.length : room;
  if (n < s.length)
    t->truncated = true;
  memcpy(t->buf + t->len, s.data, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

void ws_text_appendf(ws_text *t, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof tmp) {
    n = sizeof tmp - 1;
    t->truncated = true;
  }
  ws_text_append_ref((MlirStringRef){tmp, (size_t)n}, t);
}

const char *ws_type_str(MlirType type, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  mlirTypePrint(type, ws_text_append_ref, &t);
  return buf;
}

const char *ws_attr_str(MlirAttribute attr, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  mlirAttributePrint(attr, ws_text_append_ref, &t);
  return buf;
}

const char *ws_nvvm_chip(const char *printed_target, char *chip, size_t cap) {
  const char *p = strstr(printed_target, "chip = \"");
  if (!p) {
    snprintf(chip, cap, "sm_50");
    return chip;
  }
  p += strlen("chip = \"");
  snprintf(chip, cap, "%.*s", (int)strcspn(p, "\""), p);
  return chip;
}

const char *ws_op_name(MlirOperation op, char *buf, size_t cap) {
  ws_text t;
  ws_text_init(&t, buf, cap);
  ws_text_append_ref(mlirIdentifierStr(mlirOperationGetName(op)), &t);
  return buf;
}

const char *ws_loc_str(MlirLocation loc, char *buf, size_t cap) {
  while (mlirLocationIsAName(loc))
    loc = mlirLocationNameGetChildLoc(loc);
  if (mlirLocationIsAFileLineColRange(loc)) {
    snprintf(buf, cap, "%d:%d", mlirLocationFileLineColRangeGetStartLine(loc),
             mlirLocationFileLineColRangeGetStartColumn(loc));
    return buf;
  }
  ws_text t;
  ws_text_init(&t, buf, cap);
  mlirLocationPrint(loc, ws_text_append_ref, &t);
  return buf;
}

bool ws_op_is(MlirOperation op, const char *name) {
  return ws_ref_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

int ws_gpu_dimension(MlirOperation op) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("dimension"));
  char text[64];
  if (mlirAttributeIsNull(a))
    return -1;
  ws_attr_str(a, text, sizeof text);
  return strstr(text, "x>") ? 0 : strstr(text, "y>") ? 1 : strstr(text, "z>") ? 2 : -1;
}

bool ws_constant_int(MlirValue v, long long *value) {
  if (!mlirValueIsAOpResult(v) || !ws_op_is(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v),
                                                    mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *value = (long long)mlirIntegerAttrGetValueInt(a);
  return true;
}

MlirOperation ws_enclosing_op(MlirOperation op, const char *name) {
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (ws_op_is(p, name))
      return p;
  return (MlirOperation){NULL};
}

bool ws_op_within(MlirOperation op, MlirOperation outer) {
  for (MlirOperation at = mlirOperationGetParentOperation(op); !mlirOperationIsNull(at);
       at = mlirOperationGetParentOperation(at))
    if (mlirOperationEqual(at, outer))
      return true;
  return false;
}

bool ws_defined_within(MlirValue v, MlirOperation op) {
  if (mlirValueIsAOpResult(v))
    return ws_op_within(mlirOpResultGetOwner(v), op);
  MlirOperation owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  return mlirOperationEqual(owner, op) || ws_op_within(owner, op);
}

bool ws_ref_eq(MlirStringRef ref, const char *s) {
  size_t n = strlen(s);
  return ref.length == n && memcmp(ref.data, s, n) == 0;
}

char *ws_vformat(const char *prefix, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, again);
  va_end(again);
  size_t head = strlen(prefix), len = n > 0 ? (size_t)n : 0;
  char *msg = malloc(head + len + 1);
  if (!msg)
    abort(); /* out of memory: as MLIR itself does */
  memcpy(msg, prefix, head);
  msg[head] = '\0';
  if (n > 0)
    vsnprintf(msg + head, len + 1, fmt, ap);
  return msg;
}

/* Shared by the two error entry points; a message as long as it needs
 * (a plan's table of rings, one row each). */
static void emit_vformat(MlirLocation loc, const char *prefix, const char *fmt, va_list ap) {
  char *msg = ws_vformat(prefix, fmt, ap);
  mlirEmitError(loc, msg);
  free(msg);
}

void ws_emit_error_at(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_vformat(loc, "", fmt, ap);
  va_end(ap);
}

void ws_emit_op_error(MlirOperation op, const char *fmt, ...) {
  char name[128], prefix[160];
  snprintf(prefix, sizeof prefix, "'%s' op ", ws_op_name(op, name, sizeof name));
  va_list ap;
  va_start(ap, fmt);
  emit_vformat(mlirOperationGetLocation(op), prefix, fmt, ap);
  va_end(ap);
}
