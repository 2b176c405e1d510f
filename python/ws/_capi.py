"""ctypes declarations of the ws C API (ws-c/Compile.h, ws-c/Version.h).

The library is libws-c.so: the one in the package (``ws/lib``, put there by
``pip install``), else ``$WS_LIBRARY``, else a checkout's ``build/lib``.
The structures below follow the header field by field.
"""

import ctypes
import os

MAX_KERNEL_ARGS = 32
MAX_KERNEL_NAME = 128


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, data: bytes) -> "StringRef":
        # the caller keeps `data` alive for the call
        return cls(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p), len(data))

    def text(self) -> str:
        return ctypes.string_at(self.data, self.length).decode() if self.length else ""


class KernelArg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("scalar", ctypes.c_int),
        ("divisor", ctypes.c_int64),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int),
        ("box", ctypes.c_int64 * 5),
        ("swizzle", ctypes.c_int),
        ("view", ctypes.c_bool),
        ("direct", ctypes.c_bool),
    ]


class KernelInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * MAX_KERNEL_NAME),
        ("block_threads", ctypes.c_int),
        ("shared_memory_bytes", ctypes.c_int),
        ("blocks_per_sm", ctypes.c_int),
        ("persistent", ctypes.c_bool),
        ("cluster_x", ctypes.c_int),
        ("cluster_y", ctypes.c_int),
        ("pair", ctypes.c_bool),
        ("workspace_per_block", ctypes.c_int64),
        ("num_args", ctypes.c_int),
        ("args", KernelArg * MAX_KERNEL_ARGS),
    ]


class CompileDiagnostic(ctypes.Structure):
    _fields_ = [
        ("severity", ctypes.c_int),
        ("file", StringRef),
        ("line", ctypes.c_int),
        ("column", ctypes.c_int),
        ("message", StringRef),
    ]


# MlirDiagnosticSeverity
SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}
# WsArgKind, WsScalarType
ARG_KINDS = {0: "scalar", 1: "descriptor", 2: "array"}
SCALAR_TYPES = {1: "i32", 2: "i64", 3: "f32", 4: "f64"}


def _candidates():
    env = os.environ.get("WS_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", "libws-c.so")
    yield os.path.join(here, "..", "..", "build", "lib", "libws-c.so")


def _declare(lib):
    c = ctypes
    lib.wsGetVersion.restype = StringRef
    lib.wsGetVersion.argtypes = []
    lib.wsDtypeGetName.restype = c.c_char_p
    lib.wsDtypeGetName.argtypes = [c.c_int]
    lib.wsDtypeGetByteWidth.restype = c.c_int
    lib.wsDtypeGetByteWidth.argtypes = [c.c_int]
    lib.wsCompile.restype = c.c_void_p
    lib.wsCompile.argtypes = [StringRef, StringRef, StringRef]
    lib.wsCompiledDestroy.restype = None
    lib.wsCompiledDestroy.argtypes = [c.c_void_p]
    lib.wsCompiledSucceeded.restype = c.c_bool
    lib.wsCompiledSucceeded.argtypes = [c.c_void_p]
    lib.wsCompiledGetPTX.restype = StringRef
    lib.wsCompiledGetPTX.argtypes = [c.c_void_p]
    lib.wsCompiledGetNumKernels.restype = c.c_ssize_t
    lib.wsCompiledGetNumKernels.argtypes = [c.c_void_p]
    lib.wsCompiledGetKernel.restype = c.POINTER(KernelInfo)
    lib.wsCompiledGetKernel.argtypes = [c.c_void_p, c.c_ssize_t]
    lib.wsCompiledGetNumDiagnostics.restype = c.c_ssize_t
    lib.wsCompiledGetNumDiagnostics.argtypes = [c.c_void_p]
    lib.wsCompiledGetDiagnostic.restype = CompileDiagnostic
    lib.wsCompiledGetDiagnostic.argtypes = [c.c_void_p, c.c_ssize_t]
    return lib


_lib = None


def lib():
    """The loaded libws-c.so (loaded at the first call)."""
    global _lib
    if _lib is None:
        tried = []
        for path in _candidates():
            path = os.path.normpath(path)
            if os.path.exists(path):
                _lib = _declare(ctypes.CDLL(path))
                break
            tried.append(path)
        else:
            raise ImportError(
                "ws: libws-c.so not found (looked in %s); install the package with "
                "`pip install ./python` after `tools/ws-dev build`, or set WS_LIBRARY"
                % ", ".join(tried))
    return _lib
