/* source_capi.c: wsLocationGetFilePosition and wsSourceNestingWithin
 * (ws-c/Compile.h): what ws-opt's diagnostics and wsCompile both need to
 * know of a source text and of a location in it. */
#include "ws-c/Compile.h"

static bool resolve(MlirLocation loc, MlirStringRef *file, int *line, int *column,
                    int depth) {
  if (depth > 16 || mlirLocationIsNull(loc))
    return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = mlirLocationFileLineColRangeGetStartLine(loc);
    *column = mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return resolve(mlirLocationNameGetChildLoc(loc), file, line, column, depth + 1);
  if (mlirLocationIsACallSite(loc))
    return resolve(mlirLocationCallSiteGetCallee(loc), file, line, column, depth + 1);
  if (mlirLocationIsAFused(loc)) {
    MlirLocation parts[16];
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n > 16)
      return false;
    mlirLocationFusedGetLocations(loc, parts);
    for (intptr_t i = 0; i < n; i++)
      if (resolve(parts[i], file, line, column, depth + 1))
        return true;
  }
  return false;
}

/* Names and call sites point at what they wrap; the depth bound keeps a
 * pathological chain of wrappers from recursing without end. */
bool wsLocationGetFilePosition(MlirLocation loc, MlirStringRef *file, int *line,
                               int *column) {
  return resolve(loc, file, line, column, 0);
}

/* A scan, not a parse: strings and line comments are skipped so that a
 * bracket inside them does not count. */
bool wsSourceNestingWithin(MlirStringRef source, int limit, int *line, int *column) {
  const char *text = source.data;
  size_t len = source.length;
  int depth = 0, l = 1, c = 1;
  for (size_t i = 0; i < len; i++, c++) {
    char ch = text[i];
    if (ch == '\n') {
      l++;
      c = 0;
    } else if (ch == '"') { /* a string: to its closing quote, past escapes */
      for (i++, c++; i < len && text[i] != '"' && text[i] != '\n'; i++, c++)
        if (text[i] == '\\' && i + 1 < len)
          i++, c++;
    } else if (ch == '/' && i + 1 < len && text[i + 1] == '/') { /* a comment */
      while (i + 1 < len && text[i + 1] != '\n')
        i++;
    } else if (ch == '{' || ch == '[' || ch == '(') {
      if (++depth > limit) {
        *line = l;
        *column = c;
        return false;
      }
    } else if ((ch == '}' || ch == ']' || ch == ')') && depth > 0) {
      depth--;
    }
  }
  return true;
}
