"""ws from Python: compile a tile-level kernel in-process, launch it on
PyTorch tensors, cache and autotune it.

    import ws
    mod = ws.compile("add.mlir", chip="sm_90a")
    print(mod.add.signature)

Compiling needs only libws-c.so (the ws C API); launching imports the CUDA
Python bindings and torch at the first launch.
"""

from .cache import clear as clear_cache
from .compiler import (Arg, CompileError, Diagnostic, Module, Signature, compile,
                       version)
from .launch import Kernel

__all__ = ["Arg", "CompileError", "Diagnostic", "Kernel", "Module", "Signature",
           "clear_cache", "compile", "version"]
