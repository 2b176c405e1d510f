# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctypes declarations of the ws C API (ws-c/Compile.h, ws-c/Launch.h,
ws-c/Version.h).

Two libraries: libws-c.so, the whole C API (it needs MLIR), for compiling,
and libws-launch.so, the launch half alone (it needs nothing), for checking
and launching. Each is looked for in ``$WS_LIBRARY``'s folder when that
names libws-c.so, else in the package (``ws/lib``, put there by ``pip
install``), else in a checkout's ``build/lib``. The structures below follow
the headers field by field.
"""

import ctypes
import os
from typing import Optional

MAX_ARG_NAME = 64


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, data: bytes) -> "StringRef":
        # the caller keeps `data` alive for the call
        return cls(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p), len(data))

    def text(self) -> str:
        return ctypes.string_at(self.data, self.length).decode() if self.length else ""


_ERROR_CALLBACK = ctypes.CFUNCTYPE(None, StringRef, ctypes.c_void_p)


class Diagnostics(ctypes.Structure):
    """WsDiagnostics: where a pass's configuration errors go (remarks are
    not asked for here)."""
    _fields_ = [("on_error", _ERROR_CALLBACK), ("on_remark", ctypes.c_void_p),
                ("user_data", ctypes.c_void_p)]


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
        ("name", ctypes.c_char * MAX_ARG_NAME),
    ]


class KernelInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("block_threads", ctypes.c_int),
        ("shared_memory_bytes", ctypes.c_int),
        ("blocks_per_sm", ctypes.c_int),
        ("persistent", ctypes.c_bool),
        ("cluster_x", ctypes.c_int),
        ("cluster_y", ctypes.c_int),
        ("pair", ctypes.c_bool),
        ("workspace_per_block", ctypes.c_int64),
        ("num_args", ctypes.c_int),
        ("args", ctypes.POINTER(KernelArg)),
    ]


class Tensor(ctypes.Structure):
    _fields_ = [
        ("base", ctypes.c_uint64),
        ("rank", ctypes.c_int),
        ("dtype", ctypes.c_int),
        ("sizes", ctypes.c_uint64 * 5),
        ("strides", ctypes.c_uint64 * 5),
    ]


class ScalarValue(ctypes.Union):
    _fields_ = [("i32", ctypes.c_int32), ("i64", ctypes.c_int64), ("f32", ctypes.c_float),
                ("f64", ctypes.c_double)]


class LaunchArg(ctypes.Structure):
    _fields_ = [("tensor", Tensor), ("scalar", ScalarValue)]


class LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


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


def _candidates(name):
    env = os.environ.get("WS_LIBRARY")
    if env:
        yield os.path.join(os.path.dirname(env), name)
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", name)
    yield os.path.join(here, "..", "..", "build", "lib", name)


def _declare_launch(lib):
    c = ctypes
    lib.wsGetVersion.restype = StringRef
    lib.wsGetVersion.argtypes = []
    lib.wsGetBuildId.restype = StringRef
    lib.wsGetBuildId.argtypes = []
    lib.wsDtypeGetName.restype = c.c_char_p
    lib.wsDtypeGetName.argtypes = [c.c_int]
    lib.wsDtypeGetByteWidth.restype = c.c_int
    lib.wsDtypeGetByteWidth.argtypes = [c.c_int]
    lib.wsLaunchCreate.restype = c.c_void_p
    lib.wsLaunchCreate.argtypes = [c.POINTER(KernelInfo)]
    lib.wsLaunchDestroy.restype = None
    lib.wsLaunchDestroy.argtypes = [c.c_void_p]
    lib.wsLaunchPrepare.restype = LogicalResult
    lib.wsLaunchPrepare.argtypes = [c.c_void_p, c.POINTER(LaunchArg), c.c_void_p, c.c_uint64,
                                    c.POINTER(c.c_uint), c.c_uint]
    lib.wsLaunchGetParams.restype = c.c_void_p
    lib.wsLaunchGetParams.argtypes = [c.c_void_p]
    lib.wsLaunchGetError.restype = c.c_char_p
    lib.wsLaunchGetError.argtypes = [c.c_void_p]
    lib.wsLaunchBalancedGrid.restype = c.c_uint
    lib.wsLaunchBalancedGrid.argtypes = [c.c_uint64, c.c_uint, c.c_uint]
    return lib


def _declare(lib):
    c = ctypes
    _declare_launch(lib)
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
    lib.wsPassGetOptionValue.restype = c.c_bool
    lib.wsPassGetOptionValue.argtypes = [StringRef, StringRef, StringRef, c.c_char_p,
                                         c.c_size_t, c.POINTER(Diagnostics)]
    lib.wsLookupPass.restype = c.c_ssize_t
    lib.wsLookupPass.argtypes = [StringRef]
    lib.wsPassGetNumOptions.restype = c.c_ssize_t
    lib.wsPassGetNumOptions.argtypes = [c.c_ssize_t]
    lib.wsPassGetOption.restype = None
    lib.wsPassGetOption.argtypes = [c.c_ssize_t, c.c_ssize_t, c.POINTER(StringRef),
                                    c.POINTER(StringRef), c.POINTER(StringRef)]
    return lib


_libs = {}


def _load(name, declare, why):
    if name not in _libs:
        tried = []
        for path in _candidates(name):
            path = os.path.normpath(path)
            if os.path.exists(path):
                try:
                    _libs[name] = declare(ctypes.CDLL(path))
                except OSError as e:
                    raise ImportError("ws: cannot load %s (%s): %s%s" % (
                        path, why, e, "; compiling needs MLIR 22 (libMLIR.so), and a module "
                        "not in the cache must be compiled" if name == "libws-c.so" else "")
                    ) from None
                break
            tried.append(path)
        else:
            raise ImportError(
                "ws: %s (%s) not found (looked in %s); install the package with `pip install "
                "--no-build-isolation ./python` after `tools/ws-dev build`, or set WS_LIBRARY "
                "to libws-c.so's path" % (name, why, ", ".join(tried)))
    return _libs[name]


def lib():
    """libws-c.so, the whole C API (loaded at the first call)."""
    return _load("libws-c.so", _declare, "the compiler")


def pass_option_names(argument: str):
    """The option names of the ws pass or pipeline `argument` ("ws-pipeline"),
    as the C API lists them."""
    c = lib()
    text = argument.encode()
    index = c.wsLookupPass(StringRef.of(text))
    names = []
    for i in range(c.wsPassGetNumOptions(index) if index >= 0 else 0):
        name = StringRef()
        c.wsPassGetOption(index, i, ctypes.byref(name), None, None)
        names.append(name.text())
    return names


def option_error(argument: str, options: str) -> Optional[str]:
    """What is wrong with `options` ("key=value ...") for the ws pass or
    pipeline `argument`, as its parser says it (an unknown option, a value
    out of range or not among its choices), or None."""
    said = []

    def on_error(message, _):
        said.append(message.text())

    callback = _ERROR_CALLBACK(on_error)  # kept alive for the call
    diagnostics = Diagnostics(callback, None, None)
    pass_name, text = argument.encode(), options.encode()
    # asking for any option's value parses, and so checks, the whole text
    buf = ctypes.create_string_buffer(8)
    ok = lib().wsPassGetOptionValue(StringRef.of(pass_name), StringRef.of(text),
                                    StringRef.of(b"chip"), buf, len(buf),
                                    ctypes.byref(diagnostics))
    return None if ok else "; ".join(said) or "bad options %r" % options


def launch_lib():
    """libws-launch.so, the launch half (loaded at the first call)."""
    return _load("libws-launch.so", _declare_launch, "the launch rules")
