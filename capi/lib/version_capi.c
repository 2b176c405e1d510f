/* version_capi.c: ws-c/Version.h. WS_VERSION comes from project() in the
 * top-level CMakeLists.txt. Built into the launch half too (no MLIR call),
 * so a machine that only runs kernels knows which ws made them. */
#include "ws-c/Version.h"

MlirStringRef wsGetVersion(void) {
  MlirStringRef version = {WS_VERSION, sizeof WS_VERSION - 1};
  return version;
}
