/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* version_capi.c: ws-c/Version.h. WS_VERSION comes from project() in the
 * top-level CMakeLists.txt, WS_BUILD_ID from cmake/build_id.cmake. Built
 * into the launch half too (no MLIR call), so a machine that only runs
 * kernels knows which ws made them. */
#include "ws-c/Version.h"

#include "ws_build_id.h"

MlirStringRef wsGetVersion(void) {
  MlirStringRef version = {WS_VERSION, sizeof WS_VERSION - 1};
  return version;
}

MlirStringRef wsGetBuildId(void) {
  MlirStringRef id = {WS_BUILD_ID, sizeof WS_BUILD_ID - 1};
  return id;
}
