"""ws from Python: compile a tile-level kernel in-process, launch it on
PyTorch tensors, cache and autotune it.

    import ws
    mod = ws.compile("add.mlir", chip="sm_90a")
    print(mod.add.signature)

Compiling needs libws-c.so (the ws C API, over MLIR); checking and launching
need only libws-launch.so, and import the CUDA Python bindings and torch at
the first launch. ws.load runs a module compiled elsewhere (Module.save).
"""

from .cache import clear as clear_cache
from .compiler import (Arg, CompileError, Diagnostic, Module, Signature, compile, load,
                       version)
from .launch import Kernel

__all__ = ["Arg", "CompileError", "Diagnostic", "Kernel", "Module", "Signature",
           "clear_cache", "compile", "load", "version"]
