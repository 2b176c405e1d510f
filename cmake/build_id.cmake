# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cmake -DOUT=FILE -DSOURCES_FILE=LIST -P build_id.cmake (LIST holds the
# sources as a CMake list): writes FILE, a
# header defining WS_BUILD_ID, the first 16 hex digits of a SHA-256 over
# the named sources (the code that decides a kernel's PTX), so that
# anything keyed by it (the Python package's disk cache) changes with the
# code, not only with the version number. FILE is rewritten only when the
# identity changes, so an unchanged tree rebuilds nothing.
file(READ "${SOURCES_FILE}" sources)
set(all "")
foreach(f IN LISTS sources)
  file(SHA256 "${f}" h)
  string(APPEND all "${h}")
endforeach()
string(SHA256 id "${all}")
string(SUBSTRING "${id}" 0 16 id)
set(text "#define WS_BUILD_ID \"${id}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${text}")
