/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ws-c/Version.h: which ws this is.
 */
#ifndef WS_C_VERSION_H
#define WS_C_VERSION_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ws version ("0.1.0"): the one in the top-level CMakeLists.txt, which
 * ws-opt --version, the CMake package and pkg-config report too. */
MlirStringRef wsGetVersion(void);

/* The build's identity: 16 hex digits hashed from the sources that decide
 * a kernel's code (dialect/, passes/, capi/), so two builds of one version
 * with different code differ here. The Python package keys its disk cache
 * by it. */
MlirStringRef wsGetBuildId(void);

#ifdef __cplusplus
}
#endif

#endif /* WS_C_VERSION_H */
