# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""PTX to cubin in-process, through nvJitLink (libnvJitLink.so, which ships
with CUDA 12 and 13 and as the ``nvidia-nvjitlink`` wheel).

Upstream MLIR's gpu-module-to-binary runs the ``ptxas`` executable; a
runtime that compiles on every new configuration should not fork. When no
nvJitLink can be loaded, ws keeps the PTX and the driver compiles it when
the module is loaded (``cuModuleLoadData`` takes PTX).
"""

import ctypes
import os
import re

INPUT_PTX = 2  # NVJITLINK_INPUT_PTX

_lib = None
_tried = False


def _load():
    global _lib, _tried
    if _tried:
        return _lib
    _tried = True
    names = []
    if os.environ.get("WS_NVJITLINK"):
        names.append(os.environ["WS_NVJITLINK"])
    root = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    names += [os.path.join(root, "lib64", "libnvJitLink.so"), "libnvJitLink.so.13",
              "libnvJitLink.so.12", "libnvJitLink.so"]
    for name in names:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        p = ctypes.c_void_p
        lib.nvJitLinkCreate.argtypes = [ctypes.POINTER(p), ctypes.c_uint32,
                                        ctypes.POINTER(ctypes.c_char_p)]
        lib.nvJitLinkAddData.argtypes = [p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
                                         ctypes.c_char_p]
        lib.nvJitLinkComplete.argtypes = [p]
        lib.nvJitLinkGetLinkedCubinSize.argtypes = [p, ctypes.POINTER(ctypes.c_size_t)]
        lib.nvJitLinkGetLinkedCubin.argtypes = [p, ctypes.c_char_p]
        lib.nvJitLinkGetErrorLogSize.argtypes = [p, ctypes.POINTER(ctypes.c_size_t)]
        lib.nvJitLinkGetErrorLog.argtypes = [p, ctypes.c_char_p]
        lib.nvJitLinkDestroy.argtypes = [ctypes.POINTER(p)]
        _lib = lib
        break
    return _lib


def available() -> bool:
    return _load() is not None


def target_of(ptx: str) -> str:
    """The chip a PTX module is for (its .target line)."""
    m = re.search(r"^\s*\.target\s+(sm_\w+)", ptx, re.M)
    if not m:
        raise ValueError("ws: the PTX has no .target line")
    return m.group(1)


class LinkError(RuntimeError):
    pass


def link(ptx: str, opt_level: int = 3) -> bytes:
    """The cubin of `ptx`, for the chip its .target names, at ptxas's -O3
    as gpu-module-to-binary builds it."""
    lib = _load()
    if lib is None:
        raise LinkError("ws: nvJitLink is not available")
    handle = ctypes.c_void_p()
    opts = [("-arch=" + target_of(ptx)).encode(), ("-O%d" % opt_level).encode()]
    argv = (ctypes.c_char_p * len(opts))(*opts)
    if lib.nvJitLinkCreate(ctypes.byref(handle), len(opts), argv) != 0:
        raise LinkError("ws: nvJitLinkCreate failed for %s" % opts[0].decode())
    try:
        data = ptx.encode()
        status = lib.nvJitLinkAddData(handle, INPUT_PTX, data, len(data), b"ws.ptx")
        if status == 0:
            status = lib.nvJitLinkComplete(handle)
        if status != 0:
            size = ctypes.c_size_t()
            lib.nvJitLinkGetErrorLogSize(handle, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value + 1)
            lib.nvJitLinkGetErrorLog(handle, log)
            raise LinkError("ws: nvJitLink could not compile the PTX (status %d): %s"
                            % (status, log.value.decode(errors="replace").strip()))
        size = ctypes.c_size_t()
        lib.nvJitLinkGetLinkedCubinSize(handle, ctypes.byref(size))
        cubin = ctypes.create_string_buffer(size.value)
        lib.nvJitLinkGetLinkedCubin(handle, cubin)
        return cubin.raw
    finally:
        lib.nvJitLinkDestroy(ctypes.byref(handle))
