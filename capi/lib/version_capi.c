/* version_capi.c: ws-c/Version.h. WS_VERSION comes from project() in the
 * top-level CMakeLists.txt. */
#include "ws-c/Version.h"

MlirStringRef wsGetVersion(void) { return mlirStringRefCreateFromCString(WS_VERSION); }
